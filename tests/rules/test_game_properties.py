"""Random games in every banker mode: whatever is tried, the ledger stays exact and balanced."""

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fantan_table.rules import (
    COIN_CENTS,
    MAX_COINS_PER_ROUND,
    Game,
    GameConfig,
    HouseBank,
    HouseScorer,
    Player,
    RotatingBanker,
    RulesError,
    ShortBank,
    Stage,
    Suit,
    Variant,
    parse_bet,
)

from .oracle import all_bet_texts, delta_cents

NAMES = ["Colin", "Steve", "Dean", "Graeme"]
banker_modes = st.one_of(
    st.just(HouseScorer()),
    st.builds(HouseBank, st.integers(1, 20_000)),
    st.builds(RotatingBanker, st.integers(1, 4)),
)


class FanTanNight(RuleBasedStateMachine):
    @initialize(
        n=st.integers(2, 4),
        start=st.integers(100, 3000),
        banker=banker_modes,
        variants=st.sampled_from([Variant.NONE, Variant.ALL, Variant.CORNERS | Variant.STRONG]),
        short_bank=st.sampled_from(ShortBank),
    )
    def setup(self, n, start, banker, variants, short_bank):
        players = tuple(Player(NAMES[i], list(Suit)[i]) for i in range(n))
        self.game = Game(GameConfig(players, start, variants, banker, short_bank=short_bank))
        self.money = n * start + (self.game.house_cents or 0)
        self.house_result = 0  # what the scorer's unlimited house has won

    def snapshot(self):
        g = self.game
        return (
            g.stage,
            g.round,
            dict(g.balances),
            g.house_cents,
            g.banker,
            {p.name: g.wagers(p.name) for p in g.players},
        )

    @rule(
        bets=st.lists(
            st.tuples(
                st.integers(0, 3),
                st.sampled_from(all_bet_texts()),
                st.one_of(st.integers(1, 2), st.sampled_from([0, 6])),
            ),
            min_size=1,
            max_size=8,
        )
    )
    def place(self, bets):
        g = self.game
        for who, text, coins in bets:
            name = g.players[who % len(g.players)].name
            before = self.snapshot()
            try:
                g.place(name, parse_bet(text), coins)
            except RulesError:
                assert self.snapshot() == before, "a refused bet changed the state"

    @rule(who=st.integers(0, 3), text=st.sampled_from(all_bet_texts()), coins=st.integers(0, 3))
    def remove(self, who, text, coins):
        g = self.game
        name = g.players[who % len(g.players)].name
        before = self.snapshot()
        try:
            g.remove(name, parse_bet(text), coins)
        except RulesError:
            assert self.snapshot() == before

    @rule()
    def close(self):
        before = self.snapshot()
        try:
            self.game.close_bets()
        except RulesError:
            assert self.snapshot() == before

    @precondition(lambda self: self.game.stage is Stage.CLOSED)
    @rule(open_number=st.integers(0, 3))
    def settle(self, open_number):
        g = self.game
        expected = {
            p.name: g.balance(p.name) + sum(delta_cents(str(w.bet), w.coins, open_number) for w in g.wagers(p.name))
            for p in g.players
        }
        banker, bank = g.banker, g.bank_cents
        report = g.settle(open_number)
        assert sum(s.delta_cents for s in report.players) + report.banker_delta_cents == 0
        for s in report.players:
            assert s.balance_after_cents + s.unpaid_cents == expected[s.player]
            assert s.unpaid_cents >= 0 and (s.unpaid_cents == 0 or s.delta_cents >= 0)  # only winners go unpaid
        if report.unpaid_cents:  # short, in proportion: it paid all it held, each winner their share to a cent
            assert g.config.short_bank is ShortBank.IN_PROPORTION and report.bank_after_cents == 0
            won = {
                s.player: s.delta_cents + s.unpaid_cents for s in report.players if s.delta_cents + s.unpaid_cents > 0
            }
            held = sum(s.delta_cents for s in report.players if s.player in won)
            for name, cents in won.items():
                paid = next(s.delta_cents for s in report.players if s.player == name)
                assert abs(paid - cents * held / sum(won.values())) < 1
        elif bank is not None and g.config.short_bank is ShortBank.IN_PROPORTION:
            assert report.bank_after_cents is not None and report.bank_after_cents >= min(0, bank)
        if banker is not None:
            assert report.banker == banker
            assert not any(s.results for s in report.players if s.player == banker)
        if isinstance(g.config.banker, HouseScorer):
            self.house_result += report.banker_delta_cents

    @precondition(lambda self: any(not r.voided for r in self.game.reports))
    @rule(pick=st.integers(0, 100), open_number=st.integers(0, 3))
    def correct(self, pick, open_number):
        g = self.game
        settled = [r for r in g.reports if not r.voided]
        report = settled[pick % len(settled)]
        before = self.snapshot()
        try:
            correction = g.correct(report.round, open_number)
        except RulesError:
            assert self.snapshot() == before
            return
        event("a round corrected")
        assert correction.corrected_from is not None and correction.round == report.round
        assert sum(s.delta_cents for s in correction.players) + correction.banker_delta_cents == 0
        if g.config.short_bank is ShortBank.OWES or correction.banker is None and g.house_cents is None:
            # paid in full: the round's effect on each player is now exactly a settlement on the new number
            first = next(r for r in g.reports if r.round == report.round)
            for s in first.players:
                effect = sum(
                    p.delta_cents
                    for r in g.reports
                    if r.round == report.round
                    for p in r.players
                    if p.player == s.player
                )
                assert effect == sum(delta_cents(str(w.wager.bet), w.wager.coins, open_number) for w in s.results)
        if isinstance(g.config.banker, HouseScorer):
            self.house_result += correction.banker_delta_cents

    @precondition(lambda self: self.game.stage is Stage.CLOSED)
    @rule()
    def void(self):
        balances = dict(self.game.balances)
        report = self.game.void()
        assert report.voided and dict(self.game.balances) == balances

    @precondition(lambda self: self.game.stage is Stage.SHOWING)
    @rule()
    def next_round(self):
        self.game.next_round()
        assert self.game.stage is (Stage.OVER if self.game.is_over else Stage.BETTING)

    @precondition(lambda self: not self.game.is_over)
    @rule()
    def raid_and_resume(self):
        before = self.snapshot()
        self.game.raid()
        assert self.game.is_over
        self.game.resume()
        assert self.snapshot() == before

    @invariant()
    def money_is_conserved(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        total = sum(g.balances.values()) + (g.house_cents or 0) + self.house_result
        assert total == self.money

    @invariant()
    def money_is_whole_cents(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        assert all(type(b) is int for b in g.balances.values())
        assert g.house_cents is None or type(g.house_cents) is int
        for row in g.scoring_table().rows:
            assert all(type(c) is int for c in row)

    @invariant()
    def stakes_within_limits(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        for p in g.players:
            coins = g.coins_staked(p.name)
            assert coins <= MAX_COINS_PER_ROUND
            assert coins * COIN_CENTS <= max(g.balance(p.name), 0)
            if p.name == g.banker:
                assert coins == 0

    @invariant()
    def scoring_table_keeps_every_round(self):
        if not hasattr(self, "game"):
            return
        g = self.game
        table = g.scoring_table()
        assert len(table.rows) == len(g.reports) + 1
        assert table.rows[-1][: len(g.players)] == tuple(g.balance(p.name) for p in g.players)


FanTanNight.TestCase.settings = settings(max_examples=150, stateful_step_count=60)
TestFanTanNight = FanTanNight.TestCase
