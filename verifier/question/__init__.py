"""The question: what it names (entities, cells, ratios, prose figures) for the stages that check against it."""
