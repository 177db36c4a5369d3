"""Card Fan Tan (Sevens, Parliament, Card Dominoes) after rule documents 001, 002 and 004: a pure rules core.

``cards`` the pack, ``layout`` the rows the sevens open, ``options`` the documents' choices, ``deal`` who deals
and what, ``hand`` one hand's turns, ``revoke`` a claim decided against the hands shown, ``settlement`` the
chips, ``events`` what is journaled, ``game`` a whole game, ``hosted`` the adapter the table uses. No I/O.
"""
