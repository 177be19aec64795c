"""Reading what users send: JSON with Decimal numbers, and assistant transcripts."""
