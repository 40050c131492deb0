"""The host's Discord side: the only host code that imports discord.

Custom ids and the layout of controls (``components``), how a game looks (``presenter``, with
the shared ``auction`` and ``offers`` kits), the table messages (``publisher``) and every click on them
(``tables``), the lobby message (``lobby_message``) and guarded Discord calls (``safe``).  Services below it
(``bot.services.sessions``, ``bot.services.lobby``, ``bot.storage``) know nothing of Discord.
"""
