"""Devices, config and threads put together: the config, the devices it opens, the cup watcher and the loop that
feeds camera frames to the core, the owner thread, a night's start, the console, the demo and the self-test.
"""
