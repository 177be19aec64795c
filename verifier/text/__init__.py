"""Sentences and words: the answer's sentences and citations, label words, cue words, acronyms, stated moves."""
