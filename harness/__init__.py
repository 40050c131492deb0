"""What the tests and the benchmarks share: the toy game, real Discord's rules over SimCord,
reading the messages SimCord holds, and a throwaway PostgreSQL server.

A package of its own (not ``tests``) because the benchmarks ship in the wheel and ``tests`` does
not: a benchmark may import this package, never ``tests``."""
