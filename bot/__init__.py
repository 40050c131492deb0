"""The game host: configuration, storage, the session service, Discord routing and the CLI.

It knows every game only through :class:`rules.core.Rules` and the registry
in :mod:`bot.core.registry`; nothing here names a particular game.
"""
