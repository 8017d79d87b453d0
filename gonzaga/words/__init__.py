"""The words floor: everything the game says, in every language, and nothing that draws.

Above the rules, below the authority (session, saves, statistics, hints), net, render, ui and
scenes; it imports only the rules (for the refusals' keys) and never pygame.

- ``i18n``: the API, ``t(key, **params)``, ``tn(key, n)``, ``set_language``, ``Term`` (a log
  line's parameter), ``rule_text`` (a refusal in the player's language).
- ``en``, ``en_learn``, ``en_online``: the English words, the source of every catalog; the
  refusals' English is in ``gonzaga/rules/refusals.py``.
- ``locale/<lang>/LC_MESSAGES/gonzaga.po``: the translations (gettext, ``msgctxt`` = key,
  ``msgid`` = English), ``locale/gonzaga.pot`` the template; ``catalog`` reads and writes them,
  ``source`` lists the English messages, ``tools/po_sync.py`` keeps them in step.
- ``rules_text`` (the rules in short), ``rules_pages`` (the rules reference's pages).
"""
