"""The table's hardware behind small ports (camera, panel, display), each with a real and a simulated adapter."""
