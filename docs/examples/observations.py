#!/usr/bin/env python3
"""Every published value of one economic series, oldest first, from the weather and economics data service.

Python 3.8 or newer, standard library only. Run from anywhere:

    SERVICE_URL=http://127.0.0.1:3000 python3 observations.py us-unemployment-rate 2025-01

Arguments: the series slug, the first reference period (optional), the page size (optional). Prints one line per
reference period, "<period><TAB><value>", the value exactly as the publisher wrote it, then the publishers to credit.
Values are decimal strings: compute with decimal.Decimal, never float, to keep them exact. On an error it prints the
service's error code and message (branch on the code, never the message) and exits with status 1.
"""
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE_URL = os.environ.get("SERVICE_URL", "http://127.0.0.1:3000").rstrip("/")


def get(path, params):
    """One GET: the `{data, meta}` body, or exit with the `{error: {code, message, requestId}}` the service sent."""
    url = f"{BASE_URL}{path}?{urllib.parse.urlencode(params)}"
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as failure:
        error = json.load(failure)["error"]
        retry = failure.headers.get("Retry-After")
        wait = f" (retry after {retry} s)" if retry else ""
        sys.exit(f"{error['code']}: {error['message']}{wait} [request {error['requestId']}]")


def observations(series, start=None, page_size=None):
    """Yields (observation, meta) for every page, following meta.nextCursor until it is null."""
    params = {"series": series}
    if start:
        params["from"] = start
    if page_size:
        params["limit"] = page_size
    while True:
        page = get("/api/public/v1/economics/observations", params)
        for observation in page["data"]["observations"]:
            yield observation, page["meta"]
        if not page["meta"].get("nextCursor"):
            return
        params["cursor"] = page["meta"]["nextCursor"]


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    credits = {}
    for observation, meta in observations(*argv[1:4]):
        value = observation["value"]
        print(f"{observation['referencePeriod']}\t{value if value is not None else 'not available'}")
        for record in meta["attributionRecords"]:
            credits[record["sourceId"]] = record
    for record in credits.values():
        print(f"source: {record['sourceId']}, {record['licenseName']}, {record['termsUrl']}")


if __name__ == "__main__":
    main(sys.argv)
