"""The scorer's page: bets from phones, the live table, the scoring table, the banker's controls."""
