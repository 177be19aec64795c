"""The question: read once (``question``: a :class:`Question`, on ``State.asked``), and
what it names (entities, cells, ratios, prose figures) for the stages that check
against it."""
