"""A game of piecepack Fan Tan: players, the bank, rounds, the ledger and when the game ends.

:class:`Game` is driven by a handful of actions (place, remove, close bets, settle,
void, next round, raid, resume), each a move of the one round machine (:mod:`.round`),
and is deterministic: replaying the same actions gives the same
ledger, which is what the table's journal relies on. It does no I/O and reads no clock:
a time limit is checked against the time the caller passes in.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from .bets import Bet, Variant, format_variants
from .draw import BankDraw
from .errors import ConfigError, GameError, StakeError
from .money import COIN_CENTS, format_cents
from .names import name_key, normal_form, player_name, quoted_name
from .round import Action, RoundMachine, Stage, refusal
from .settlement import BetResult, Wager, check_open_number, check_stake, check_variants, settle_wagers

MIN_PLAYERS, MAX_PLAYERS = 2, 4
HOUSE_COLUMN = "House"
"""The house bank's column in the scoring table: no player may share its name while a house bank plays."""
HOUSE_KEY = name_key(HOUSE_COLUMN)
DEFAULT_STARTING_CENTS = 5000


class Suit(enum.Enum):
    SUNS = "suns"
    MOONS = "moons"
    CROWNS = "crowns"
    ARMS = "arms"


@dataclass(frozen=True)
class Player:
    name: str
    """As the table shows it (:func:`.names.player_name`): a name that cannot be shown is refused here, so
    the config file, the banker's form and the journal's replay all meet the same check."""
    suit: Suit

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", player_name(self.name))


# -- who banks ---------------------------------------------------------------------------
@dataclass(frozen=True)
class HouseScorer:
    """The table only keeps score for an unlimited house (the default): the house never runs out."""


@dataclass(frozen=True)
class HouseBank:
    """A house bank with its own balance. It does not rotate, and it can go bankrupt."""

    balance_cents: int


@dataclass(frozen=True)
class RotatingBanker:
    """A player banks: keeps the losses, pays the wins, does not bet, and hands the bank on every few rounds."""

    every_rounds: int
    first: str | None = None
    """The first banker's name; the first player when not given."""
    by_roll: bool = False
    """The first banker is decided by rolling the highest (each player rolls in turn, ties roll again) before
    the first round, instead of being named."""

    def __post_init__(self) -> None:
        if self.first is not None:  # "Ann " is Ann, as her own name is
            object.__setattr__(self, "first", normal_form(self.first))


BankerMode = HouseScorer | HouseBank | RotatingBanker


# -- when the game ends ---------------------------------------------------------------------
@dataclass(frozen=True)
class AfterRounds:
    """An agreed number of rounds has been played (void rounds do not count)."""

    rounds: int


@dataclass(frozen=True)
class AtTime:
    """A time is reached. The round under way is finished first."""

    deadline: datetime


@dataclass(frozen=True)
class FirstBankrupt:
    """The first player is bankrupt."""


@dataclass(frozen=True)
class SecondLastBankrupt:
    """Only one player is left who is not bankrupt."""


@dataclass(frozen=True)
class BankerBankrupt:
    """The house bank, or the rotating banker, is bankrupt."""


@dataclass(frozen=True)
class UntilRaid:
    """No agreed end: play goes on until the police raid the house."""


EndCondition = AfterRounds | AtTime | FirstBankrupt | SecondLastBankrupt | BankerBankrupt | UntilRaid


class EndReason(enum.Enum):
    ROUNDS = "the agreed rounds are played"
    TIME = "the agreed time is reached"
    FIRST_BANKRUPT = "a player is bankrupt"
    SECOND_LAST_BANKRUPT = "only one player is left with money"
    BANKER_BANKRUPT = "the bank is bankrupt"
    RAID = "the house was raided by the police"
    NOBODY_CAN_BET = "nobody is left who can bet"
    ENDED = "the banker ended the game"


def is_bankrupt(balance_cents: int) -> bool:
    """A player is bankrupt once they cannot stake a single $1 coin."""
    return balance_cents < COIN_CENTS


class ShortBank(enum.Enum):
    """The house rule for a bank (a house bank, or a player banking) that holds less than a round's wins.

    The rule document's variant says the banker "must pay out winnings"; what a bank that cannot is left to
    the house. Either way the bank is then bankrupt: a house bank ends the game, a banking player hands the
    bank on and can no longer bet."""

    OWES = "owes"
    """Every win is paid in full; the bank's balance goes below zero: what it owes the winners."""
    IN_PROPORTION = "in-proportion"
    """The bank pays what it holds (its balance and the round's losses), shared among the winners in proportion
    to their wins, to the cent; it ends at zero and the rest of the wins go unpaid."""


@dataclass(frozen=True)
class GameConfig:
    players: tuple[Player, ...]
    starting_balance_cents: int = DEFAULT_STARTING_CENTS
    variants: Variant = Variant.NONE
    banker: BankerMode = HouseScorer()
    end: EndCondition = UntilRaid()
    short_bank: ShortBank = ShortBank.OWES

    def __post_init__(self) -> None:
        players = self.players
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ConfigError(f"Fan Tan is for {MIN_PLAYERS} to {MAX_PLAYERS} players (got {len(players)})")
        seen: dict[str, str] = {}
        for p in players:
            key = name_key(p.name)
            if key in seen:
                raise ConfigError(
                    f"player names must differ, and {seen[key]!r} and {p.name!r} are one name to the table "
                    "(case and letter width do not count): give one of them another name"
                )
            seen[key] = p.name
        if len({p.suit for p in players}) != len(players):
            raise ConfigError(
                f"each player bets with coins of their own suit; suits repeat: {[p.suit.value for p in players]}"
            )
        _check_cents("starting balance", self.starting_balance_cents, minimum=COIN_CENTS)
        banker, end = self.banker, self.end
        if isinstance(banker, HouseBank):
            _check_cents("house bank balance", banker.balance_cents, minimum=1)
        if isinstance(banker, RotatingBanker):
            if type(banker.every_rounds) is not int or banker.every_rounds < 1:
                raise ConfigError(
                    f"the bank rotates every N rounds, N a whole number >= 1 (got {banker.every_rounds!r})"
                )
            if banker.first is not None and banker.first not in {p.name for p in players}:
                raise ConfigError(f"the first banker {quoted_name(banker.first)} is not one of the players")
            if banker.by_roll and banker.first is not None:
                raise ConfigError(
                    f"the first banker is named ({quoted_name(banker.first)}) and decided by a roll: choose one"
                )
        if isinstance(end, AfterRounds) and (type(end.rounds) is not int or end.rounds < 1):
            raise ConfigError(f"the agreed number of rounds must be a whole number >= 1 (got {end.rounds!r})")
        if isinstance(end, AtTime) and end.deadline.tzinfo is None:
            raise ConfigError("the end time needs a time zone, so that it means the same on the table and the phones")
        if isinstance(banker, HouseBank) and HOUSE_KEY in seen:
            raise ConfigError(
                f"the house bank's column in the scoring table is called {HOUSE_COLUMN}: give the player "
                f"{seen[HOUSE_KEY]!r} another name"
            )
        if isinstance(end, BankerBankrupt) and isinstance(banker, HouseScorer):
            raise ConfigError(
                "'banker bankrupt' needs a house bank or a rotating banker: the scorer's house never runs out"
            )

    def player(self, name: str) -> Player:
        """The player called ``name``, however its spaces, letter forms and case are written (a journal may hold
        "Ann " from before names were normalised; a banker types "ann"): names differ in more than these."""
        wanted = normal_form(name)
        for p in self.players:
            if p.name == wanted:
                return p
        for p in self.players:
            if name_key(p.name) == name_key(wanted):
                return p
        raise GameError(
            f"no player called {quoted_name(name)}; the players are {', '.join(p.name for p in self.players)}"
        )


def _check_cents(what: str, cents: int, *, minimum: int) -> None:
    if type(cents) is not int:
        raise ConfigError(f"the {what} is whole cents (got {cents!r})")
    if cents < minimum:
        raise ConfigError(f"the {what} must be at least {format_cents(minimum)} (got {format_cents(cents)})")


@dataclass(frozen=True)
class PlayerSettlement:
    player: str
    results: tuple[BetResult, ...]
    balance_before_cents: int
    balance_after_cents: int
    unpaid_cents: int = 0
    """Won by the bets but not paid: the bank held too little and paid in proportion (:class:`ShortBank`)."""

    @property
    def delta_cents(self) -> int:
        return self.balance_after_cents - self.balance_before_cents


@dataclass(frozen=True)
class RoundReport:
    """What a round did to the ledger. A void round returns every stake and changes nothing."""

    round: int
    open_number: int | None
    banker: str | None
    """The banking player, or ``None`` when the house banks."""
    players: tuple[PlayerSettlement, ...]
    banker_delta_cents: int
    voided: bool = False
    corrected_from: int | None = None
    """For a correction of this round: the open number it had been settled on (its deltas are then what the
    correction changed, each balance's before and after the correction)."""
    bank_after_cents: int | None = None
    """The bank's balance after the round (the house bank's, or the banking player's); ``None`` when the house
    only keeps score. Below zero, the bank owes the winners that much."""

    @property
    def unpaid_cents(self) -> int:
        """Wins the bank could not pay this round (only when it pays in proportion)."""
        return sum(s.unpaid_cents for s in self.players)

    @property
    def bank_short(self) -> bool:
        """The bank could not pay this round's wins from what it held: it is bankrupt."""
        return self.unpaid_cents > 0 or (self.bank_after_cents is not None and self.bank_after_cents < 0)

    def net(self, settlement: PlayerSettlement) -> tuple[int, int]:
        """A player's change and balance after the round, the bank's take included when that player banked."""
        take = self.banker_delta_cents if settlement.player == self.banker else 0
        return settlement.delta_cents + take, settlement.balance_after_cents + take


@dataclass(frozen=True)
class ScoringTable:
    """The banker's pad: a column per player (and the house bank), a row of totals per round.

    The first row holds the starting totals, then one row per round, and one per correction of a round,
    each labelled. Old rows are kept, never overwritten, as the old totals are crossed out but still
    legible on paper.
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[int | None, ...], ...]
    """Each column's total after the row's event; ``None`` where that player was not at the table."""
    labels: tuple[str, ...]
    """Each row's name: "start", the round's number, "3 corrected", "Dee joins" or "Ann leaves"."""

    def column(self, name: str) -> tuple[int | None, ...]:
        i = self.columns.index(name)
        return tuple(row[i] for row in self.rows)


_STEPS = frozenset({Action.READ, Action.READ_UNSHAKEN, Action.CONFIRM, Action.REROLL, Action.SHOW})


class Game:
    """The state of one game: balances, the bank, the round under way, and the reports of rounds past."""

    def __init__(self, config: GameConfig) -> None:
        self.setup = config
        """The game as it began; ``config`` follows the players who join and leave."""
        self.config = config
        self.machine = RoundMachine()
        self.round = 1
        self.rounds_played = 0
        self.end_reason: EndReason | None = None
        self.reports: list[RoundReport] = []
        self._balances = {p.name: config.starting_balance_cents for p in config.players}
        self._wagers: dict[str, dict[Bet, int]] = {p.name: {} for p in config.players}
        banker = config.banker
        self.house_cents: int | None = banker.balance_cents if isinstance(banker, HouseBank) else None
        self.banker: str | None = None
        self.draw: BankDraw | None = None
        """The roll for the first bank, when the config decides the first banker so (kept once decided)."""
        self._rounds_banked = 0
        if isinstance(banker, RotatingBanker) and banker.by_roll:
            self.draw = BankDraw(tuple(p.name for p in config.players))
            self.machine = RoundMachine(Stage.CHOOSING)
        elif isinstance(banker, RotatingBanker):
            self.banker = banker.first or config.players[0].name
        self._columns: list[str] = [p.name for p in config.players]
        """Every player ever seated, in the order they came: a column of the scoring table each."""
        self._rows: list[tuple[tuple[int | None, ...], int | None]] = [self._totals()]
        """Each row's players' totals (by the columns of its time: a newcomer's column is not in rows before) and
        the house bank's."""
        self._labels: list[str] = ["start"]

    # -- reading the state ---------------------------------------------------------------
    @property
    def stage(self) -> Stage:
        return self.machine.stage

    @property
    def players(self) -> tuple[Player, ...]:
        return self.config.players

    def balance(self, name: str) -> int:
        name = self.config.player(name).name
        return self._balances[name]

    @property
    def balances(self) -> Mapping[str, int]:
        return dict(self._balances)

    def wagers(self, name: str) -> tuple[Wager, ...]:
        """The coins ``name`` has on the layout this round, one wager per spot, in the order placed."""
        name = self.config.player(name).name
        return tuple(Wager(bet, coins) for bet, coins in self._wagers[name].items())

    def coins_staked(self, name: str) -> int:
        return sum(self._wagers[name].values()) if name in self._wagers else 0

    def can_bet(self, name: str) -> bool:
        return name != self.banker and not is_bankrupt(self._balances[name])

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (or is stopped by a raid); a last result may still be on show."""
        return self.end_reason is not None

    def scoring_table(self) -> ScoringTable:
        columns = tuple(self._columns)
        house = self.house_cents is not None
        if house:
            columns += (HOUSE_COLUMN,)
        rows = tuple(
            players + (None,) * (len(self._columns) - len(players)) + ((bank,) if house else ())
            for players, bank in self._rows
        )
        return ScoringTable(columns, rows, tuple(self._labels))

    # -- betting ---------------------------------------------------------------------------
    def place(self, name: str, bet: Bet, coins: int = 1) -> None:
        """Put ``coins`` $1 coins of ``name`` on ``bet``; refused, with the rule named, if the rules forbid it."""
        self._check(Action.BET)
        name = self.config.player(name).name
        if name == self.banker:
            raise GameError(f"{name} is the banker this round, and the banker does not bet")
        check_variants(bet, self.config.variants)
        wager = Wager(bet, coins)
        spots = dict(self._wagers[name])
        spots[bet] = spots.get(bet, 0) + wager.coins
        check_stake(name, [Wager(b, c) for b, c in spots.items()], self._balances[name])
        self._wagers[name] = spots

    def remove(self, name: str, bet: Bet, coins: int = 1) -> None:
        """Take ``coins`` of ``name``'s coins back off ``bet`` while betting is open."""
        self._check(Action.UNBET)
        name = self.config.player(name).name
        on_spot = self._wagers[name].get(bet, 0)
        if type(coins) is not int or coins < 1:
            raise StakeError(f"coins to take back must be a whole number >= 1 (got {coins!r})")
        if coins > on_spot:
            raise GameError(f"{name} has {on_spot} coin(s) on {bet}, so cannot take back {coins}")
        if coins == on_spot:
            del self._wagers[name][bet]
        else:
            self._wagers[name][bet] = on_spot - coins

    def close_bets(self) -> None:
        """'No more bets': from now on the layout is frozen until the round is settled or void."""
        self._move(Action.CLOSE)

    # -- ending a round ----------------------------------------------------------------------
    def settle(self, open_number: int, at: datetime | None = None) -> RoundReport:
        """Pay and collect every wager of the round for ``open_number``; ``at`` is now, for a time limit."""
        self._check(Action.SETTLE)
        check_open_number(open_number)
        results = {p.name: settle_wagers(self.wagers(p.name), open_number) for p in self.players}
        won = {name: sum(r.delta_cents for r in res) for name, res in results.items()}
        paid = self._what_the_bank_pays(won, self.bank_cents)
        settlements = [
            PlayerSettlement(name, res, self._balances[name], self._balances[name] + paid[name], won[name] - paid[name])
            for name, res in results.items()
        ]
        banker_delta = -sum(s.delta_cents for s in settlements)
        for s in settlements:
            self._balances[s.player] = s.balance_after_cents
        report = RoundReport(self.round, open_number, self.banker, tuple(settlements), banker_delta)
        self._move_bank(report)
        report = replace(report, bank_after_cents=self.bank_cents)
        self.rounds_played += 1
        self._rounds_banked += 1
        self._finish_round(Action.SETTLE, report, at)
        return report

    def void(self, at: datetime | None = None) -> RoundReport:
        """Call the round off: every stake goes back, nothing is won or lost."""
        self._check(Action.VOID)
        settlements = tuple(
            PlayerSettlement(p.name, (), self._balances[p.name], self._balances[p.name]) for p in self.players
        )
        report = RoundReport(
            self.round, None, self.banker, settlements, 0, voided=True, bank_after_cents=self.bank_cents
        )
        self._finish_round(Action.VOID, report, at)
        return report

    @property
    def bank_cents(self) -> int | None:
        """What the bank holds now: the house bank's balance or the banking player's; ``None`` when the house
        only keeps score (it pays every win, from nothing)."""
        if self.banker is not None:
            return self._balances[self.banker]
        return self.house_cents

    def _what_the_bank_pays(self, won: Mapping[str, int], bank: int | None) -> dict[str, int]:
        """Each player's change this round: their bets' net, or less when the bank is short and pays in proportion.

        Losses are collected first; the wins are then paid from the bank's balance and those losses. In
        proportion, each winner gets their share of what the bank holds, rounded down to the cent; the cents
        left go one each to the largest remainders (ties: in seat order), so exactly what it holds is paid.
        """
        paid = dict(won)
        owed = sum(c for c in won.values() if c > 0)
        if bank is None or self.config.short_bank is ShortBank.OWES or owed == 0:
            return paid
        holds = max(0, bank + sum(-c for c in won.values() if c < 0))
        if holds >= owed:
            return paid
        winners = [name for name, c in won.items() if c > 0]
        shares = {name: divmod(won[name] * holds, owed) for name in winners}
        for name in winners:
            paid[name] = shares[name][0]
        left = holds - sum(paid[name] for name in winners)
        for name in sorted(winners, key=lambda n: -shares[n][1])[:left]:  # sorted() is stable: seat order in ties
            paid[name] += 1
        return paid

    def settlements_of(self, round_number: int) -> list[RoundReport]:
        """A settled round's reports, its settlement first and each correction since (the last one stands);
        refused when the round was never settled (or was void): there is nothing to correct."""
        past = [r for r in self.reports if r.round == round_number]
        if not past or past[-1].voided:
            raise GameError(f"round {round_number} was not settled, so there is nothing to correct")
        return past

    def correct(self, round_number: int, open_number: int) -> RoundReport:
        """Settle a past round again on ``open_number`` (the banker misread the dice): its settlement is reversed
        and its bets settled anew, as a correcting entry under the last row; the round's first record stays.

        Only between rounds (no coin on the layout), so no stake can outgrow the balance it was checked
        against. The bank that banked that round pays or takes the difference, by the game's ``short_bank``."""
        check_open_number(open_number)
        if any(self._wagers.values()) or self.stage not in (Stage.BETTING, Stage.SHOWING, Stage.OVER):
            raise GameError("a round is corrected between rounds: settle or void the round under way first")
        past = self.settlements_of(round_number)
        last = past[-1]
        played = (*(s.player for s in past[0].players), last.banker)
        gone = [name for name in played if name and name not in self._balances]
        if gone:
            raise GameError(f"{', '.join(gone)} left the table since round {round_number}: it cannot be corrected")
        if last.open_number == open_number:
            raise GameError(f"round {round_number} was settled on open {open_number} already")
        bank = self.house_cents if last.banker is None else self._balances[last.banker]
        results = {s.player: settle_wagers(tuple(r.wager for r in s.results), open_number) for s in past[0].players}
        won = {name: sum(r.delta_cents for r in res) for name, res in results.items()}
        # what the round did so far (its settlement and any corrections since), and what the bank took by it
        before = {name: sum(s.delta_cents for r in past for s in r.players if s.player == name) for name in won}
        taken = sum(r.banker_delta_cents for r in past)
        # the bank pays as it would have, holding what it holds now less the round's take
        paid = self._what_the_bank_pays(won, None if bank is None else bank - taken)
        settlements = tuple(
            PlayerSettlement(
                name,
                results[name],
                self._balances[name],
                self._balances[name] + paid[name] - before[name],
                won[name] - paid[name],
            )
            for name in results
        )
        take = -sum(s.delta_cents for s in settlements)
        for settlement in settlements:
            self._balances[settlement.player] = settlement.balance_after_cents
        report = RoundReport(round_number, open_number, last.banker, settlements, take, corrected_from=last.open_number)
        self._move_bank(report)
        report = replace(report, bank_after_cents=None if bank is None else bank + take)
        self.reports.append(report)
        self._add_row(f"{round_number} corrected")
        if self.end_reason is None:
            self.end_reason = self._forced_end()
        return report

    def _move_bank(self, report: RoundReport) -> None:
        """Pay ``report``'s take (a loss when below zero) to the bank that banked its round."""
        if report.banker is not None:
            self._balances[report.banker] += report.banker_delta_cents
        elif self.house_cents is not None:
            self.house_cents += report.banker_delta_cents

    def _finish_round(self, action: Action, report: RoundReport, at: datetime | None) -> None:
        self._move(action)
        self.reports.append(report)
        self._add_row(str(report.round))
        self._wagers = {p.name: {} for p in self.players}
        reason = self._agreed_end_reached(report, at)
        if reason is None:
            self._pass_the_bank()
            reason = self._forced_end()
        self.end_reason = reason

    def next_round(self, at: datetime | None = None) -> None:
        """Take the result off show: the next round opens, unless the game has ended (or its time has come).
        After the roll for the bank, the first round opens with its winner banking."""
        if self.stage is Stage.CHOOSING:
            self._begin_with_the_drawn_banker()
            return
        self._move(Action.GAME_OVER if self.is_over else Action.NEXT)
        self.round += 1
        if at is not None:
            self.finish_if_due(at)

    def finish_if_due(self, now: datetime) -> bool:
        """Between rounds (betting open, no coin down), end the game if its agreed time has come."""
        end = self.config.end
        due = isinstance(end, AtTime) and now >= end.deadline
        if due and self.stage is Stage.BETTING and not any(self._wagers.values()):
            self._move(Action.GAME_OVER)
            self.end_reason = EndReason.TIME
            return True
        return False

    def end(self) -> None:
        """Stop here, as the table agrees: between rounds, with no coin on the layout."""
        self._check(Action.END)
        if any(self._wagers.values()):
            raise GameError("coins are on the layout: take them back, or play the round first")
        self._move(Action.END)
        self.end_reason = EndReason.ENDED

    def check_allowed(self, action: Action) -> None:
        """Refused with the rule's text (``GameError``) unless ``action`` may be taken now; changes nothing: what a
        preview checks before the banker confirms it."""
        self._check(action)

    def step(self, action: Action) -> None:
        """A move that touches no money (a reading, its check, showing the result): only the round moves."""
        if action not in _STEPS:
            raise GameError(f"{action.value!r} changes the ledger: use its own method")
        self._move(action)

    # -- who banks first -----------------------------------------------------------------------
    def roll_for_bank(self, dice: Sequence[int]) -> None:
        """The roll of the player whose turn it is to roll for the bank (an ok reading, or dice typed by hand)."""
        self._check(Action.READ)
        if self.draw is None or self.stage is not Stage.CHOOSING:
            raise GameError("nobody is rolling for the bank now")
        self.draw = self.draw.rolled(dice)

    def _begin_with_the_drawn_banker(self) -> None:
        assert self.draw is not None, "a game choosing its banker has a draw"
        winner = self.draw.winner
        if winner is None:
            raise GameError(f"the bank is not decided yet: {self.draw.to_roll} rolls next")
        self._move(Action.NEXT)
        self.banker, self._rounds_banked = winner, 0

    # -- players coming and going -------------------------------------------------------------
    def seat(self, player: Player, cents: int) -> None:
        """``player`` joins between rounds with ``cents`` (bought in: it comes from outside the table)."""
        self._check_between_rounds(Action.SEAT)
        _check_cents(f"money {player.name} brings", cents, minimum=COIN_CENTS)
        if len(self.players) >= MAX_PLAYERS:
            raise GameError(f"the table is full: {MAX_PLAYERS} players, one for each suit; one must leave first")
        holder = next((p.name for p in self.players if p.suit is player.suit), None)
        if holder is not None:
            free = ", ".join(s.value for s in Suit if s not in {p.suit for p in self.players})
            raise GameError(f"{player.suit.value} are {holder}'s coins: the free suits are {free}")
        config = replace(self.config, players=(*self.config.players, player))  # checks the name too
        self.config = config
        self._balances[player.name] = cents
        self._wagers[player.name] = {}
        if player.name not in self._columns:
            self._columns.append(player.name)
        self._add_row(f"{player.name} joins")

    def leave(self, name: str) -> int:
        """``name`` leaves between rounds and takes their balance (returned); a banking player hands the bank on.

        Refused while their coins lie on the layout, and when it would leave fewer than two players."""
        self._check_between_rounds(Action.LEAVE)
        name = self.config.player(name).name
        if self._wagers[name]:
            raise GameError(f"{name} has coins on the layout: take them back, or play the round first")
        if name == self.banker and any(self._wagers.values()):
            raise GameError(f"{name} banks this round: the bank passes on between rounds, with no coin on the layout")
        staying = tuple(p for p in self.config.players if p.name != name)
        if len(staying) < MIN_PLAYERS:
            raise GameError(f"{' and '.join(p.name for p in self.players)} are the last two: end the game instead")
        if not self._someone_can_bet_without(name):
            raise GameError(
                f"nobody left could bet if {name} left (the others have no money, or bank): the game would end; "
                "seat a newcomer first, or end the game"
            )
        banker = self.config.banker
        if isinstance(banker, RotatingBanker) and banker.first == name:  # the first banker is history by now
            banker = replace(banker, first=None)
        config = replace(self.config, players=staying, banker=banker)  # checks there are still enough players
        if self.banker == name:  # someone else has money: they could not bet otherwise, and the leave was refused
            self.banker, self._rounds_banked = self._next_with_money(name), 0
        self.config = config
        cents = self._balances.pop(name)
        del self._wagers[name]
        self._add_row(f"{name} leaves")
        return cents

    def _someone_can_bet_without(self, leaver: str) -> bool:
        """Whether a player would still be able to bet once ``leaver`` left (and, banking, handed the bank on)."""
        with_money = [p.name for p in self.players if p.name != leaver and not is_bankrupt(self._balances[p.name])]
        banker = self._next_with_money(leaver) if self.banker == leaver else self.banker
        return any(n != banker for n in with_money)

    def _check_between_rounds(self, action: Action) -> None:
        """A seat changes between rounds of a game still going (a result on show may be the last one)."""
        self._check(action)
        if self.end_reason is not None:
            raise GameError(refusal(action, Stage.OVER, self.end_reason.value))

    # -- the police --------------------------------------------------------------------------
    def raid(self) -> None:
        """The police raid: the game stops at once. Everything is kept, so it can resume later."""
        if self.end_reason is not None:  # a game already over, its last result maybe still on show
            raise GameError(refusal(Action.RAID, Stage.OVER, self.end_reason.value))
        self._move(Action.RAID)
        self.end_reason = EndReason.RAID

    def resume(self) -> None:
        """Carry on after a raid, exactly where the game stopped, with the same coins on the layout."""
        if self.stage is not Stage.RAIDED:
            raise GameError("only a game stopped by a police raid can be resumed")
        self._move(Action.RESUME)
        self.end_reason = None

    # -- internals ---------------------------------------------------------------------------
    def _totals(self) -> tuple[tuple[int | None, ...], int | None]:
        return tuple(self._balances.get(name) for name in self._columns), self.house_cents

    def _add_row(self, label: str) -> None:
        self._rows.append(self._totals())
        self._labels.append(label)

    def _check(self, action: Action) -> RoundMachine:
        """The round after ``action``, or the rule's refusal; changes nothing, so it can come before every check."""
        return self.machine.after(action, self.end_reason.value if self.end_reason else None)

    def _move(self, action: Action) -> None:
        self.machine = self._check(action)

    def _pass_the_bank(self) -> None:
        """Hand the bank on to the next player with money when the banker's rounds are done or the banker is broke;
        a banker alone with money banks on."""
        banker = self.config.banker
        if not isinstance(banker, RotatingBanker) or self.banker is None:
            return
        if self._rounds_banked < banker.every_rounds and self._balances[self.banker] > 0:
            return
        after = self._next_with_money(self.banker)
        if after is None and self._balances[self.banker] > 0:
            after = self.banker
        if after is not None:
            self.banker, self._rounds_banked = after, 0

    def _next_with_money(self, name: str) -> str | None:
        """The first player after ``name`` in seat order, ``name`` left out, who holds any money: the next banker."""
        names = [p.name for p in self.players]
        start = names.index(name)
        after = (names[(start + step) % len(names)] for step in range(1, len(names)))
        return next((n for n in after if self._balances[n] > 0), None)

    def _agreed_end_reached(self, report: RoundReport, at: datetime | None) -> EndReason | None:
        bankrupt = [is_bankrupt(self._balances[p.name]) for p in self.players]
        bank_cents = self.house_cents if report.banker is None else self._balances[report.banker]
        match self.config.end:
            case AfterRounds(rounds) if self.rounds_played >= rounds:
                return EndReason.ROUNDS
            case AtTime(deadline) if at is not None and at >= deadline:
                return EndReason.TIME
            case FirstBankrupt() if any(bankrupt):
                return EndReason.FIRST_BANKRUPT
            case SecondLastBankrupt() if bankrupt.count(False) <= 1:
                return EndReason.SECOND_LAST_BANKRUPT
            case BankerBankrupt() if bank_cents is not None and bank_cents <= 0:
                return EndReason.BANKER_BANKRUPT
        return None

    def _forced_end(self) -> EndReason | None:
        """Whatever was agreed, a house bank that cannot pay, or a table where nobody can bet, stops the game."""
        if self.house_cents is not None and self.house_cents <= 0:
            return EndReason.BANKER_BANKRUPT
        if not any(self.can_bet(p.name) for p in self.players):
            return EndReason.NOBODY_CAN_BET
        return None


def setup_changes(night: GameConfig, config: GameConfig) -> list[str]:
    """How the config's game differs from the night's, in words (empty: the same game): what the banker reads
    before choosing to carry on with the night or begin the config's game."""
    said: dict[str, Callable[[GameConfig], str]] = {
        "players": lambda c: ", ".join(f"{p.name} ({p.suit.value})" for p in c.players),
        "starting money": lambda c: format_cents(c.starting_balance_cents),
        "variants": lambda c: format_variants(c.variants) or "none",
        "banker": lambda c: _banker_text(c.banker),
        "end": lambda c: _end_text(c.end),
        "a short bank": lambda c: c.short_bank.value,
    }
    return [f"{what} {text(night)} -> {text(config)}" for what, text in said.items() if text(night) != text(config)]


def _banker_text(banker: BankerMode) -> str:
    match banker:
        case HouseBank(balance_cents=cents):
            return f"a house bank of {format_cents(cents)}"
        case RotatingBanker(every_rounds=every, first=first, by_roll=by_roll):
            start = " from the highest roll" if by_roll else f" from {first}" if first else ""
            return f"rotating every {every} rounds{start}"
        case _:
            return "the house keeps score"


def _end_text(end: EndCondition) -> str:
    match end:
        case AfterRounds(rounds=rounds):
            return f"after {rounds} rounds"
        case AtTime(deadline=deadline):
            return f"at {deadline.isoformat(timespec='minutes')}"
        case FirstBankrupt():
            return "at the first bankrupt"
        case SecondLastBankrupt():
            return "when one player is left with money"
        case BankerBankrupt():
            return "when the bank is bankrupt"
        case _:
            return "at a raid"
