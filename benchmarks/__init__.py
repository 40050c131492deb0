"""Benchmark scripts; each prints its figures next to the goals and ends with one JSON line."""
