"""The installable app: the web app manifest and the service worker, served from the site's
root (a worker's scope is the folder it is served from, and the app is the whole site).

The worker's file (static/sw.js) names no files itself: the server writes in the page's own
files and a hash of their contents, so a changed file makes a new worker, which refreshes
what the app keeps.  What it keeps is the page only; /api and /ws are never cached.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

# The page's files the app keeps (pages are kept under their routes, "/" and "/replay").
KEPT = (".css", ".js", ".png", ".svg", ".webmanifest")
PAGES = ("/", "/replay", "/lessons", "/mine", "/manifest.webmanifest")


def kept_files(static: Path) -> list[Path]:
    return sorted(p for p in static.rglob("*") if p.is_file() and p.suffix in KEPT
                  and p.name != "sw.js")


def worker(static: Path) -> str:
    files = kept_files(static)
    digest = hashlib.sha256()
    for path in [*files, *static.glob("*.html")]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    urls = [*PAGES, *(f"/static/{p.relative_to(static).as_posix()}" for p in files)]
    text = (static / "sw.js").read_text(encoding="utf-8")
    return (text.replace("__VERSION__", digest.hexdigest()[:16])
            .replace("__FILES__", json.dumps(urls)))


def routes(static: Path) -> list[BaseRoute]:
    async def service_worker(request: Request) -> Response:
        return Response(worker(static), media_type="text/javascript", headers={
            "cache-control": "no-cache", "service-worker-allowed": "/",
            "x-content-type-options": "nosniff"})

    async def manifest(request: Request) -> Response:
        text = (static / "manifest.webmanifest").read_text(encoding="utf-8")
        return Response(text, media_type="application/manifest+json",
                        headers={"cache-control": "no-cache"})

    return [Route("/sw.js", service_worker), Route("/manifest.webmanifest", manifest)]
