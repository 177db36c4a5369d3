"""The running table: config, the round's state machine, the journal, and the wiring of devices to rules and vision."""
