"""The running table, in three rooms: ``core`` (the event-sourced night), ``show`` (what it looks like) and
``wiring`` (devices, config and threads put together). Arrows go only downward: wiring -> show -> core.
"""
