"""Test-only game modules loaded through ``GAMEHOST_PLUGINS`` (never imported by the test process)."""
