"""The parts the presenter (``cogs/presenter.py``) is made of, each with one job.

What the presenter holds of one table is in one place:

* ``stage.TableStage`` — a table's public life: its newest commit, its worker, and the state each
  part below keeps of it (``OutboxState``, ``LiveState``, ``clicks.TableClicks``, its lobby's
  ``openings.Opening``); made when the table first has something to show, dropped by the presenter
  in one place once the table has closed and everything it owed is shown.

The parts that act on a table's stage, handed it by the presenter's worker:

* ``outbox.OutboxDelivery`` — the posts a table owes its channel: each sent once (through a click,
  or with its nonce; a look in the channel first where neither can tell) and then marked shown in
  the store;
* ``live.LiveMessages`` — the message that shows a table now, with its buttons: posted, edited,
  superseded;
* ``news.News`` — what one post shows, by its kind, drawn with the parts here;
* ``reminders.Reminders`` — who owes a move in a turn-based game: mentions and direct messages.

The parts that hold nothing of any one table:

* ``budget.RequestBudget`` — the bot token's requests a second, players' first;
* ``channels.TableChannels`` — a table's channel and thread on Discord, reached patiently: every
  request is tried again until Discord accepts it or refuses it for good;
* ``pictures.Pictures`` — the table picture and the score chart, drawn in a worker process;
* ``clicks.Clicks`` and ``openings.Openings`` — where the face's buttons and commands (through
  ``carriers.py``) hand in the clicks whose interaction webhooks carry a table's messages outside
  the bot token's limit, and the interactions that open lobbies, waiting by host until a lobby's
  commit claims one; a table's clicks and its claimed opening are kept on its stage.
"""
