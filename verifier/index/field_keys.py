"""Field names that say what a value is: a ticker (``symbol``), a currency
(``currency``), a security code (``cusip``). The walk indexes such fields' values, and
the records read a leaf's entity and currency from them."""

from __future__ import annotations

SYMBOL_KEYS = frozenset({"symbol", "ticker", "sym", "tickersymbol", "ticker_symbol", "code"})
CURRENCY_KEYS = frozenset({"currency", "currency_code", "ccy", "cur", "currencycode", "iso_currency"})
CODE_KEYS = frozenset({"isin", "cusip", "sedol", "lei", "figi", "security_id", "securityid"})
