"""Pillow renderers: a public view in, PNG bytes out; they never change a state."""
