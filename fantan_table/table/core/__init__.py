"""The event-sourced core: the journal (the truth), its lock, the event codec, the state folded from it, and the
banker's actions that append to it. Knows nothing of devices, threads or screens, so a night replays anywhere.
"""
