"""GET /v1/stats: flag rates from the audit log."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ..deps import AuditDep, require_key
from ..errors import error_response
from ..schemas import ErrorBody
from ..stats import GroupBy, Stats, stats

router = APIRouter(prefix="/v1", tags=["stats"], dependencies=[Depends(require_key)])


def _iso_only(value: object) -> object:
    """Refuse what is no ISO 8601 text before pydantic reads it: it would take ``0.5`` or
    ``1700000000`` as seconds since the epoch."""
    if isinstance(value, str) and not _ISO.match(value):
        raise ValueError("must be an ISO 8601 date or time, e.g. 2026-01-31 or 2026-01-31T09:30:00+01:00")
    return value


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]|$)")
IsoDateTime = Annotated[datetime, BeforeValidator(_iso_only)]


def _utc(moment: datetime | None) -> datetime | None:
    """``moment`` as the naive UTC the log stores; a moment whose UTC falls outside the
    calendar (0001-01-01T00:00+05:00) is its first or last representable instant."""
    if moment is None or moment.tzinfo is None:
        return moment
    try:
        return moment.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:
        return datetime.min if moment.year == datetime.min.year else datetime.max


def _aware(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.replace(tzinfo=UTC)


class StatsQuery(BaseModel):
    """The query of GET /v1/stats; another parameter is a 422 naming it (a misspelt
    ``group-by`` or ``from`` would otherwise be dropped silently and the stats be of the
    whole log)."""

    model_config = ConfigDict(extra="forbid")

    since: IsoDateTime | None = Field(None, description="From this time (ISO 8601; UTC if no offset).")
    until: IsoDateTime | None = Field(None, description="Before this time (ISO 8601; UTC if no offset).")
    group_by: GroupBy | None = Field(None, description="Group by model, prompt_version, tool, day or assistant.")


@router.get("/stats", response_model=Stats, responses={
    401: {"model": ErrorBody, "description": "An API key is configured and the request lacks it."},
    409: {"model": ErrorBody, "description": "The audit log is off (VERIFIER_AUDIT_URL empty)."},
    422: {"model": ErrorBody, "description": "A query parameter is malformed or unknown; names it (query.<name>)."}},
    operation_id="getStats", summary="Verification counts, flag rate and confidence, overall and per group")
async def get_stats(audit: AuditDep, query: Annotated[StatsQuery, Query()]) -> Stats | object:
    if audit is None:
        return error_response(409, "audit_off", "the audit log is off: set VERIFIER_AUDIT_URL")
    since, until, group_by = _utc(query.since), _utc(query.until), query.group_by
    if since is not None and until is not None and since >= until:
        return error_response(422, "invalid_request", f"since ({since:%Y-%m-%dT%H:%M:%S}) must be before "
                              f"until ({until:%Y-%m-%dT%H:%M:%S})", "query.since")

    def read() -> Stats:
        audit.flush()  # include what was verified a moment ago
        # echoed with their offset: the window in UTC, as it was applied
        return stats(audit.rows(since, until), _aware(since), _aware(until), group_by)

    return await asyncio.to_thread(read)
