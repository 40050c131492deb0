"""Discord glue: the lobby cog and one presentation cog per game."""
