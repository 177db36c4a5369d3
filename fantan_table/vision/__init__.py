"""Image in, dice out: die detection, pip counting, and the synthetic scenes used to test them. No I/O but images."""
