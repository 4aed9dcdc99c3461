"""Backend adapters. Only code under here speaks a vendor protocol."""
