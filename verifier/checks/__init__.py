"""The logic behind the match-side stages: matching, attribution, polarity, conflicts, grounding, scoring."""
