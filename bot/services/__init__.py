"""Host services that need no Discord: tested with a fake clock and a real database."""
