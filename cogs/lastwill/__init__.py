"""Last Will with Getting the Sack on Discord: a public table, and one's hand in private panels.

Hands, draws, the drawing split and the discards not yet revealed are secret; money, boards, jobs,
the offering, plans, errand boys and market tokens are open.  So everything public (the status,
the log lines, the table's buttons, their labels and custom_ids) comes from ``view(state, None)``,
from public events, and from the engine's price helpers (``rules.lastwill.buy_price``...), which
read public facts only (the market, boards, money, helpers, deck sizes) and the card ids they are
given.  The table's moves are the waited-for seat's legal actions of the kinds in
:data:`TABLE_KINDS` only: each of them names a seat, a plan, an errand space, a face-up offering
slot or a card already on a board, and the engine decides them from public facts alone (a test
swaps every hidden card and checks that the table stays the same); so are the answers of an open
choice that names nothing hidden (:data:`~cogs.lastwill.table.PUBLIC_STEPS`: a line to cover, a
card on one's board, an amount).  Everything that names a card in a hand lives on private
(ephemeral) panels, drawn from ``view(state, seat)``; the table only says which kinds of plays
some hand of the seat's size could make now (``plays``), never which cards it holds.  Every
control is one its presser's game takes, or opens a panel with such a choice, or a panel that
says it is somebody else's (``tests/cogs/test_lastwill_controls.py``).

The table message, by phase (the host adds "Catch me up"):

    pick       one toggle per seat ("Toggle job: bob") · Confirm employed players (handicap only)
    discard    Choose my discards… (a private multi-select; the status names who is still choosing)
    planning   one button per free plan: "Plan 3: 4 cards · 2 boys · 1 action"
    drawing    Choose my draw… (the private split panel)
    errands    a select of offering slots ("Slot 4: Farm F3") · Draw 1: Property/Event/Helper/
               Companion · a select of market swaps · Opera (£2) · Board extension · Demotion ·
               Demotion or extension · Keep the boy home
    actions    Play a card… · Buy a property… · Lay a helper… · Put a companion on a card… (the
               kinds some hand could play now, each opening its private panel) · a select of
               one's board moves ("Maintain Town House T2 (£3)", "Sell Farm F3 (+£8)", "Use
               Reservation (£2)") · End turn · Declare bankruptcy… (when open) · My hand…
    a choice   its answers when they name nothing hidden ("Cover Horse (−£3 income)", "No
               demotion now"): a demotion errand shows its choice at once; else one button naming
               it ("Add companions…", "Demotion or extension…") that opens the chooser's panel
    always     My hand…

Private panels (``Button(ui=...)``), each closing with Done or stepping Back to the hand:

    hand       every card with what it would do now (price, money spent, actions, a demotion it
               would earn) and, on one's Actions turn, a button per play; several-part plays open
               their own step: ``comp.<card>`` (which board card takes this companion), ``ball.<card>``
               (the Ball's level), ``nupt`` (a select of the nuptial sets one can play)
    plays      ``plays.<kind>`` (white, buy, lay, token): one kind's cards and every play of them,
               each a click (Ball levels, nuptial sets and companions on cards included)
    answer     the open choice (companions, a line to cover, the Wedding Planner's extra, a
               Bachelor Party's discards, a target, Breeders' Fair tokens, demotion or extension,
               the Personal Secretary's keep)
    draw       +1 per deck, Back (start over) and Confirm: the split is private until drawn
    discard    a multi-select of one's hand: round 1's keep-2 and the hand limit, all seats at once
    bankrupt   the confirmation

Every public event has one short line (``[lastwill.event]``); runs of incomes, depreciations and a
play with its payment fold into one line each (:meth:`LastWillPresenter.lines`).

The package, each module importing only those below it:

    presenter  LastWillPresenter: the hooks that route (``ui`` codes, next and stale panels),
               "Catch me up" and the scores
    table      the status, the purses and the table's controls (:data:`TABLE_KINDS`)
    steps      companion, Ball, nuptial, answer, draw, discard and bankruptcy panels
    plays      the Actions turn's kinds of plays, their panels, and an answer's button
    hand       My hand, what a card would do now, Done and Back
    words      money, cards and spaces in words, and every event line
"""

from __future__ import annotations

from cogs.lastwill.presenter import LastWillPresenter
from cogs.lastwill.table import TABLE_KINDS

__all__ = ["TABLE_KINDS", "LastWillPresenter"]
