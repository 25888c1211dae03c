"""The parts the presenter (``cogs/presenter.py``) is made of, each with one job:

* ``channels.TableChannels`` — a table's channel and thread on Discord, reached patiently: every
  request is tried again until Discord accepts it or refuses it for good;
* ``clicks.Clicks`` — each table's newest click, whose interaction webhook carries its next post
  (and a lobby's edits) outside the bot token's limit;
* ``outbox.OutboxDelivery`` — the posts a table owes its channel: each sent once (through a click,
  or with its nonce; a look in the channel first where neither can tell) and then marked shown in
  the store;
* ``live.LiveMessages`` — the message that shows a table now, with its buttons: posted, edited,
  retired;
* ``reminders.Reminders`` — who owes a move in a turn-based game: mentions and direct messages;
* ``news.News`` — what one post shows, by its kind, drawn with the parts above;
* ``pictures.Pictures`` — the table picture and the score chart, drawn in a worker process.
"""
