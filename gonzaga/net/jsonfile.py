"""Reading the small JSON files of online play (``mygames.py``'s book of seats,
``server_list.py``'s saved servers): read, size-limited and validated with pydantic, never a
crash; what is wrong said in the player's words (the caller moves a damaged file aside)."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Optional, TypeVar

from pydantic import BaseModel, ValidationError

from ..table import save_schema as S
from ..words import i18n

log = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)


def read_model(path: Path, model: type[M], max_bytes: int, bad_field_key: str) -> tuple[Optional[M], str]:
    """(the file's contents, "") or (None, what is wrong with it, in words: ``bad_field_key``
    with ``field`` names the first field that does not fit)."""
    try:
        return model.model_validate(S.read_json_file(path, max_bytes)), ""
    except S.FileProblem as e:
        return None, e.message()
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ()))
        return None, i18n.t(bad_field_key, field=S.excerpt(where, 40))
    except Exception:  # never a crash: the log keeps the cause
        log.exception("reading %s", path)
        return None, i18n.t("save.unexpected")
