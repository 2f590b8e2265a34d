"""API fuzzing: schemathesis over every operation of /api/openapi.json, with a token of each role.

Run through fuzz/run.sh (which prepares the virtual environment). This script:

1. creates a database of its own on the PostgreSQL server of DATABASE_URL (a superuser URL),
   owned by the least-privilege role the server runs as;
2. migrates it and creates a super admin with the real `loyalty` binary, then starts
   `loyalty serve` on a free port as that role;
3. creates two companies, A and B, with points of sale, categories, products, customers, users
   of every role and some points history, through the API;
4. runs schemathesis over every operation, its stateful phase included (operations chained by
   their results): without a token (the only run that fuzzes the login), then with A's cajero,
   supervisor, super-admin-impersonation and admin tokens; checks that no byte of company B's
   schema (nor its platform row) changed; then with B's cajero and admin tokens against A's ids
   and documents, checking that no answer carries A's data and that no byte of A changed; then
   with the super admin's token. Before each run company A gets fresh records (the runs before
   may have deleted some), among them balances at the largest the server accepts, and about
   half of the generated ids are ids of A's records. Before the runs, bursts of concurrent wrong
   passwords (logins, void approvals) may get no more checked than the throttle allows, nor may
   any login name in a run's answers;
5. prints a summary and exits non-zero on any failure (a check failing, a 5xx in the server's
   log, a change to company B, a server that died), with the failures' details; the full
   reports stay in fuzz/.work/<role>/.
"""

from __future__ import annotations

import argparse
import base64
import dataclasses
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import traceback
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "fuzz" / ".work"
APP_ROLE = "loyalty_app"
SUPER_ADMIN = "fuzzroot"
PASSWORD = "fuzz-password-1"
COMPANY_A = "fuzza"
COMPANY_B = "fuzzb"


@dataclasses.dataclass
class Mode:
    max_examples: int
    phases: str
    workers: int
    # Scenarios of the stateful phase, each a chain of up to `max-steps` linked operations.
    stateful_examples: int


# One worker: hypothesis changes the process's recursion limit while it generates, and with two
# threads that races CPython 3.11's parser of the lambdas it describes ("AST constructor
# recursion depth mismatch"), an error of the tool, not of the server.
MODES = {
    # About 2-4 minutes on 2 cores against a debug build.
    "quick": Mode(max_examples=20, phases="examples,coverage,fuzzing,stateful", workers=1, stateful_examples=100),
    # The soak run: many more generated cases per operation and role.
    "long": Mode(max_examples=300, phases="examples,coverage,fuzzing,stateful", workers=1, stateful_examples=1000),
}

# The server's login throttle (docs/reliability.md): wrong passwords checked per login name
# before it is locked, with slack for attempts in flight when the lock is written.
THROTTLE_PER_NAME = 10
THROTTLE_SLACK = 2

CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
        "negative_data_rejection",
        "ignored_auth",
        "unsupported_method",
        "allow_header_conformance",
        "missing_required_header",
    ]
)


def log(message: str) -> None:
    print(f"fuzz: {message}", flush=True)


# ---------------------------------------------------------------------------------------------
# Database


def url_with(url: str, *, user: str | None = None, database: str | None = None) -> str:
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc
    if user is not None:
        host = netloc.rsplit("@", 1)[-1]
        netloc = f"{user}@{host}"
    path = f"/{database}" if database is not None else parts.path
    return urllib.parse.urlunsplit((parts.scheme, netloc, path, parts.query, parts.fragment))


def psql(url: str, sql: str) -> str:
    result = subprocess.run(
        ["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"psql failed: {result.stderr.strip()}")
    return result.stdout.strip()


def create_database(super_url: str, name: str) -> str:
    """A database owned by the server's role, set up as deploy/sql/setup-database.sql does."""
    maintenance = url_with(super_url, database="postgres")
    psql(
        maintenance,
        f"do $$ begin create role {APP_ROLE} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls; "
        "exception when duplicate_object then null; end $$",
    )
    psql(maintenance, f"create database {name} owner {APP_ROLE} encoding 'UTF8' template template0")
    psql(maintenance, f"alter role {APP_ROLE} in database {name} set search_path = loyalty_no_tenant")
    psql(url_with(super_url, database=name), "revoke all on schema public from public")
    return url_with(super_url, user=APP_ROLE, database=name)


def drop_database(super_url: str, name: str) -> None:
    try:
        psql(url_with(super_url, database="postgres"), f"drop database if exists {name} with (force)")
    except RuntimeError as err:
        log(f"could not drop {name}: {err}")


def schema_digest(url: str, prefix: str) -> dict[str, str]:
    """Row count and an md5 of every row of every table of a company's schema, and its platform row."""
    # The schema the company's platform row names (a company made from a spare keeps the spare's).
    schema = psql(url, f"select schema_name from platform.companies where prefix = '{prefix}'").strip()
    tables = psql(url, f"select tablename from pg_tables where schemaname = '{schema}' order by 1").split()
    digest = {}
    for table in tables:
        digest[table] = psql(
            url,
            f"select count(*) || ' ' || md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) "
            f'from "{schema}"."{table}" t',
        )
    digest["platform.companies"] = psql(url, f"select t::text from platform.companies t where prefix = '{prefix}'")
    return digest


# ---------------------------------------------------------------------------------------------
# The server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, binary: Path, db_url: str, log_path: Path):
        self.binary = binary
        self.db_url = db_url
        self.log_path = log_path
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def run(self, *args: str, env: dict[str, str] | None = None) -> None:
        full_env = {**os.environ, "DATABASE_URL": self.db_url, "RUST_LOG": "warn", **(env or {})}
        result = subprocess.run([str(self.binary), *args], env=full_env, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"loyalty {args[0]} failed: {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.db_url,
            "JWT_SECRET": secrets.token_urlsafe(48),
            "BIND_ADDR": f"127.0.0.1:{self.port}",
            "CLIENT_DIR": str(WORK / "no-client"),
            "RUST_LOG": "info",
            "LOG_FORMAT": "json",
            "DB_POOL_SIZE": "8",
            # The daily expiration job runs at start-up, before any company exists, and then
            # not again for an hour: it must not write into company B during the comparison.
            "EXPIRATION_FIRST_CHECK_SECS": "0",
        }
        env.pop("METRICS_TOKEN", None)
        self.log_file = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [str(self.binary), "serve"], env=env, stdout=self.log_file, stderr=subprocess.STDOUT
        )
        for _ in range(300):
            if self.process.poll() is not None:
                raise RuntimeError(f"loyalty serve exited with {self.process.returncode}: see {self.log_path}")
            try:
                if requests.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        raise RuntimeError("loyalty serve did not become ready in 30 s")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if getattr(self, "log_file", None):
            self.log_file.close()

    def server_errors(self) -> list[str]:
        """Lines of the server's log for errors: answers of 500 and above, their causes, panics."""
        errors = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                if "panicked" in line:
                    errors.append(line)
                continue
            status = entry.get("fields", {}).get("status")
            if entry.get("level") == "ERROR" or (isinstance(status, int) and status >= 500) or "panicked" in line:
                errors.append(line)
        return errors


# ---------------------------------------------------------------------------------------------
# Data, through the API


class Api:
    def __init__(self, base: str):
        self.base = base
        self.http = requests.Session()

    def call(self, method: str, path: str, token: str | None = None, body=None, expect: int = 200):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        res = self.http.request(method, f"{self.base}/api{path}", json=body, headers=headers, timeout=30)
        if res.status_code != expect:
            raise RuntimeError(f"{method} {path}: expected {expect}, got {res.status_code}: {res.text[:300]}")
        return res.json() if res.content else None

    def send(self, method: str, path: str, token: str | None = None, body=None) -> int:
        """A request whose answer may be anything; answers its status."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return requests.request(method, f"{self.base}/api{path}", json=body, headers=headers, timeout=60).status_code

    def login(self, username: str, password: str = PASSWORD) -> str:
        return self.call("POST", "/login", body={"username": username, "password": password})["token"]

    def enrol(self, token: str, customer: dict) -> dict:
        """Adds a customer who authorizes every purpose of the privacy notice in force, at a store."""
        notice = self.call("GET", "/privacy-notices/current", token)
        consent = {"noticeVersion": notice["version"], "purposes": [p["key"] for p in notice["purposes"]], "channel": "store"}
        return self.call("POST", "/customers", token, {**customer, "consent": consent}, expect=201)


def seed_company(api: Api, super_token: str, prefix: str, mark: str) -> dict:
    """A company with a bit of everything; answers its id and a token of each role.

    `mark` is written into the company's free texts (names, addresses, descriptions,
    references), and into no dictionary: an answer to another company that carries it leaks
    this company's data.
    """
    company = api.call(
        "POST",
        "/super/companies",
        super_token,
        {
            "name": f"Company {prefix} {mark}",
            "prefix": prefix,
            "taxId": "900100200-1",
            "businessName": f"{prefix} S.A.S.",
            "address": f"Calle 1 # 2-3 {mark}",
            "phone": "6011234567",
            "adminPassword": PASSWORD,
        },
        expect=201,
    )
    admin = api.login(f"admin@{prefix}")
    api.call(
        "POST",
        "/settings",
        admin,
        {"pointsPerPeso": 0.01, "redemptionRate": 10, "enableFirstPurchaseBonus": True, "firstPurchaseBonusMultiplier": 2},
    )
    pos = [api.call("POST", "/pos", admin, {"name": f"Tienda {n} {mark}"}, expect=201)["id"] for n in ("Centro", "Norte")]
    categories = [
        api.call("POST", "/categories", admin, {"name": f"{name} {mark}", "icon": icon}, expect=201)["id"]
        for name, icon in (("Bebidas", "Beaker"), ("Regalos", "Gift"))
    ]
    products = [
        api.call(
            "POST",
            "/products",
            admin,
            {"code": code, "name": name, "description": f"{name} {mark}", "price": price, "pointsValue": points,
             "categoryId": cat, "is_active": active},
            expect=201,
        )["id"]
        for code, name, price, points, cat, active in (
            ("P1", "Café", 5000, 50, categories[0], True),
            ("P2", "Taza", 20000, 200, categories[1], True),
            ("P3", "Termo", 60000, 600, categories[1], False),
        )
    ]
    customers = [
        api.enrol(
            admin,
            {"name": f"Cliente {n} {mark}", "document": f"10{n:08d}", "email": f"c{n}@example.com", "birthdate": "1990-02-28",
             "address": f"Carrera {n} {mark}"},
        )["id"]
        for n in range(1, 6)
    ]
    api.call("POST", "/users", admin, {"username": "super", "password": PASSWORD, "role": "supervisor", "posId": pos[0]}, expect=201)
    api.call("POST", "/users", admin, {"username": "cajero", "password": PASSWORD, "role": "cajero", "posId": pos[1]}, expect=201)
    cajero = api.login(f"cajero@{prefix}")
    supervisor = api.login(f"super@{prefix}")
    for customer in customers:
        api.call("POST", f"/customers/{customer}/accredit", cajero, {"invoiceAmount": 250000, "invoiceReference": f"F-{customer} {mark}"})
    redeemed = api.call("POST", f"/customers/{customers[0]}/redeem", cajero, {"productId": products[0]})
    api.call("POST", f"/customers/{customers[1]}/redeem", cajero, {"pointsToRedeem": 100, "description": f"Bono {mark}"})
    api.call("POST", f"/transactions/{redeemed['newTransaction']['id']}/void", supervisor, {})
    return {"id": company["id"], "admin": admin, "supervisor": supervisor, "cajero": cajero}


def acting_admin(api: Api, super_token: str, company_id: int) -> str:
    """A token of company A's admin for the set-up between runs, and the `admin` user kept an admin.

    The runs before may have made another user an admin and then changed `admin`'s role, which
    the API allows; impersonation acts as the company's admin (`admin`, or else its oldest admin).
    """
    token = api.call("POST", "/super/impersonate", super_token, {"companyId": company_id})["token"]
    for user in api.call("GET", "/users", token):
        if user["username"] == "admin" and user["role"] != "admin":
            api.call("PUT", f"/users/{user['id']}", token, {"role": "admin"})
    return token


def replenish(api: Api, admin: str, round_: int) -> None:
    """More of company A's records before a role's run: the runs before may have deleted some.

    A earns at the largest rates the settings accept, so that the largest invoices reach the
    bounds of a posting and of a balance.
    """
    api.call(
        "POST",
        "/settings",
        admin,
        {"pointsPerPeso": 1000, "campaignMultiplier": 100, "enableFirstPurchaseBonus": True, "firstPurchaseBonusMultiplier": 100},
    )
    tag = f"{round_}-{secrets.token_hex(3)}"
    category = api.call("POST", "/categories", admin, {"name": f"Ronda {tag}", "icon": "Star"}, expect=201)["id"]
    api.call("POST", "/pos", admin, {"name": f"Tienda ronda {tag}"}, expect=201)
    product = api.call(
        "POST",
        "/products",
        admin,
        {"code": f"R{tag}", "name": f"Premio {tag}", "price": 1000, "pointsValue": 10, "categoryId": category},
        expect=201,
    )["id"]
    for n in range(3):
        customer = api.enrol(admin, {"name": f"Cliente {tag}-{n}", "document": f"R{tag}-{n}"})["id"]
        if n < 2:
            # A first purchase that posts 9.2 x 10^18 points at these rates: refused beyond the
            # bound of a posting, when the balance gets the largest posting instead.
            if api.send("POST", f"/customers/{customer}/accredit", admin, {"invoiceAmount": 920_000_000_000}) != 200:
                api.call("POST", f"/customers/{customer}/accredit", admin, {"invoiceAmount": 100_000_000})
        else:
            api.call("POST", f"/customers/{customer}/accredit", admin, {"invoiceAmount": 100000})
    api.call("POST", f"/customers/{customer}/redeem", admin, {"productId": product})


def probe_password_guessing(api: Api, acting: str, cajero: str, company: str) -> list[str]:
    """Bursts of concurrent wrong passwords, as a hostile cajero sends them: a supervisor's void
    approval and an admin's login. At most the throttle's limit per login name may be checked
    (401); the rest must be refused unchecked (429)."""
    customer = api.enrol(acting, {"name": "Cliente sondeo", "document": f"S{secrets.token_hex(4)}"})
    own = api.call("POST", f"/customers/{customer['id']}/accredit", cajero, {"invoiceAmount": 1})["newTransaction"]["id"]
    bursts = {
        f"void approvals of super@{company}": [
            ("POST", f"/transactions/{own}/void", cajero, {"supervisorUsername": "super", "supervisorPassword": f"guess-{n}"})
            for n in range(30)
        ],
        f"logins of admin@{company}": [
            ("POST", "/login", None, {"username": f"admin@{company}", "password": f"guess-{n}"}) for n in range(30)
        ],
    }
    problems = []
    for what, burst in bursts.items():
        with ThreadPoolExecutor(len(burst)) as pool:
            statuses = list(pool.map(lambda request: api.send(*request), burst))
        checked, refused = statuses.count(401), statuses.count(429)
        log(f"probe: {len(burst)} concurrent wrong {what}: {checked} checked (401), {refused} refused unchecked (429)")
        if checked > THROTTLE_PER_NAME or checked + refused != len(burst):
            problems.append(f"{len(burst)} concurrent wrong {what}: {checked} x 401, {refused} x 429, others {sorted(set(statuses) - {401, 429})}")
    return problems


def live_records(api: Api, admin: str) -> tuple[list[int], list[str]]:
    """Ids of company A's newest records of every kind, and its customers' documents."""
    ids: set[int] = set()
    for path in ("/customers", "/products/all", "/categories", "/pos", "/users", "/transactions"):
        records = sorted(api.call("GET", path, admin), key=lambda r: r["id"], reverse=True)
        ids.update(r["id"] for r in records[:6])
    documents = [c["document"] for c in sorted(api.call("GET", "/customers", admin), key=lambda c: -c["id"])[:6]]
    return sorted(ids), documents


ICONS = [
    "Tag", "Star", "Gift", "ShoppingBag", "Cake", "Beaker", "CreditCard", "BuildingStorefront", "DevicePhoneMobile",
    "ComputerDesktop", "ShoppingCart", "Heart", "HomeModern", "MusicalNote", "BookOpen", "PuzzlePiece", "GlobeAlt",
    "Truck", "WrenchScrewdriver", "BuildingOffice", "Key", "Cog8Tooth", "Map", "Ticket", "AcademicCap", "Sparkles",
]

# Realistic values for fields whose rules the OpenAPI document states only in words (a document
# number, an icon name, a role, a time zone...). About half of the generated values are taken
# from here, so that the fuzzer also gets past validation into creating and changing records;
# the other half stay random.
VALUES = {
    "names": ["Ana María Pérez", "Tienda Sur", "Café de Colombia", "Bebidas frías", "Ñandú 2", "Zoë \u202eabc", "日本"],
    "codes": ["P-100", "CAF-01", "X9", "CAFÉ-01"],
    "icons": ICONS + ["Estrella★"],
    "roles": ["admin", "supervisor", "cajero", "cajéro"],
    "usernames": ["pedro", "maria.p", f"admin@{COMPANY_A}", f"cajero@{COMPANY_A}", f"super@{COMPANY_A}", "super", SUPER_ADMIN, "josé"],
    "passwords": [PASSWORD, "otra-clave-123", "contraseña-ñandú"],
    # Up to the largest invoice accepted, which with the largest earning settings reaches the
    # bounds of a posting and of a balance (docs/reliability.md).
    "amounts": [1, 10, 50, 1000, 250000, 920_000_000_000, 1_000_000_000_000],
    "emails": ["ana@example.com", "pedro.p@example.co", "ñandú@example.com"],
    "dates": ["1990-04-12", "2000-02-29", "2026-01-31", "2026-01-3\uff11"],
    "policies": ["none", "fifo", "inactivity", "calendar", "vencimiento-ñ"],
    "zones": ["America/Bogota", "UTC", "Europe/Madrid", "América/Bogotá"],
    "prefixes": ["nueva", "tienda2", "fuzzc", "tiénda"],
    "tax_ids": ["900100200-1", "830000111-5", "900100200-ñ"],
    "urls": ["https://example.com/logo.png", "/img/cafe.png", "https://example.com/ñandú.png", "//evil.example/x.png"],
    "rates": [0.01, 1, 1.5, 2, 100, 1000],
    "kinds": ["accreditation", "redemption", "expiration", "cancellation", "acreditación"],
    "page_sizes": [10, 25, 50],
    "pages": [1, 2],
}

BINDINGS = {
    "path.id": "ids",
    "path.document": "documents",
    "query.text": "names",
    "query.cashier": "usernames",
    "query.type": "kinds",
    "query.from": "dates",
    "query.to": "dates",
    "query.pageSize": "page_sizes",
    "query.page": "pages",
    "query.customerId": "ids",
    "query.posId": "ids",
    "body.productId": "ids",
    "body.posId": "ids",
    "body.categoryId": "ids",
    "body.companyId": "ids",
    "body.document": "documents",
    "body.name": "names",
    "body.businessName": "names",
    "body.code": "codes",
    "body.icon": "icons",
    "body.role": "roles",
    "body.username": "usernames",
    "body.supervisorUsername": "usernames",
    "body.password": "passwords",
    "body.supervisorPassword": "passwords",
    "body.adminPassword": "passwords",
    "body.invoiceAmount": "amounts",
    "body.pointsToRedeem": "amounts",
    "body.price": "amounts",
    "body.pointsValue": "amounts",
    "body.email": "emails",
    "body.birthdate": "dates",
    "body.expirationPolicy": "policies",
    "body.timeZone": "zones",
    "body.prefix": "prefixes",
    "body.taxId": "tax_ids",
    "body.logoUrl": "urls",
    "body.imageUrl": "urls",
    "body.pointsPerPeso": "rates",
    "body.redemptionRate": "rates",
    "body.campaignMultiplier": "rates",
    "body.firstPurchaseBonusMultiplier": "rates",
    "body.birthdayBonusMultiplier": "rates",
}


def write_config(path: Path, mode: Mode, ids: list[int], documents: list[str]) -> None:
    """The shared settings plus dictionaries of realistic values, with company A's live ids."""
    values = {**VALUES, "ids": ids or [1], "documents": documents + ["CC-1020304", "987654321", "CC-ÑÑ123"]}
    # Every dictionary of text holds non-ASCII text too (schemathesis's own strings are UTF-8).
    for name, entries in values.items():
        texts = [e for e in entries if isinstance(e, str)]
        assert not texts or any(not e.isascii() for e in texts), f"dictionary {name} has no non-ASCII text"
    lines = [(ROOT / "fuzz" / "schemathesis.toml").read_text()]
    lines += ["[phases.stateful.generation]", f"max-examples = {mode.stateful_examples}", ""]
    for name, entries in values.items():
        lines += [f"[dictionaries.{name}]", f"values = {json.dumps(entries, ensure_ascii=False)}", ""]
    lines.append("[parameters]")
    lines += [f'"{key}" = {{ dictionary = "{name}", probability = 0.5 }}' for key, name in BINDINGS.items()]
    path.write_text("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------
# Schemathesis


@dataclasses.dataclass
class RoleRun:
    role: str
    ndjson: Path = Path()
    operations: int = 0
    requests: int = 0
    failures: int = 0
    errors: int = 0
    exit_code: int = 0
    seconds: float = 0.0
    # Found in the run's answers by fuzz.py itself.
    problems: list[str] = dataclasses.field(default_factory=list)


def fuzz_role(schemathesis: Path, base: str, role: str, token: str | None, mode: Mode, seed: int, config: Path) -> RoleRun:
    out = config.parent
    args = [
        str(schemathesis),
        "--config-file",
        str(config),
        "run",
        f"{base}/api/openapi.json",
        "--checks",
        CHECKS,
        "--max-examples",
        str(mode.max_examples),
        "--phases",
        # Without a token every chain ends at its first step (401): no stateful phase.
        mode.phases if token else mode.phases.replace(",stateful", ""),
        "--workers",
        str(mode.workers),
        "--seed",
        str(seed),
        "--generation-database",
        "none",
        "--request-timeout",
        "30",
        "--report",
        "ndjson,junit",
        "--report-dir",
        str(out),
        "--no-color",
    ]
    if token:
        args += ["--header", f"Authorization: Bearer {token}", "--exclude-path", "/api/login"]
    started = time.monotonic()
    with open(out / "output.txt", "w") as output:
        result = subprocess.run(args, stdout=output, stderr=subprocess.STDOUT, cwd=out)
    ndjson = out / next(p.name for p in out.iterdir() if p.suffix == ".ndjson")
    run = RoleRun(role=role, ndjson=ndjson, exit_code=result.returncode, seconds=time.monotonic() - started)
    count_events(ndjson, run)
    return run


def count_events(path: Path, run: RoleRun) -> None:
    """Operations, requests and failures from schemathesis's event stream."""
    operations = set()
    for line in path.read_text().splitlines():
        event = json.loads(line)
        for kind, body in event.items():
            if kind == "ScenarioFinished":
                recorder = body.get("recorder", {})
                label = recorder.get("label")
                if label:
                    operations.add(label)
                run.requests += sum(1 for i in recorder.get("interactions", {}).values() if i.get("response"))
                for checks in recorder.get("checks", {}).values():
                    run.failures += sum(1 for c in checks if str(c.get("status")).lower() == "failure")
            elif kind in ("NonFatalError", "FatalError"):
                run.errors += 1
    run.operations = len(operations)


# ---------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=sorted(MODES), nargs="?", default="quick")
    parser.add_argument("--seed", type=int, default=None, help="schemathesis seed (random by default)")
    parser.add_argument("--max-examples", type=int, default=None, help="override the mode's examples per operation")
    args = parser.parse_args()
    # A stop from outside (make, CI) still stops the server and drops the database.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    mode = MODES[args.mode]
    if args.max_examples:
        mode = dataclasses.replace(mode, max_examples=args.max_examples)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)

    super_url = os.environ.get("DATABASE_URL")
    if not super_url:
        log("DATABASE_URL must be a superuser URL (make test sets it)")
        return 2
    binary = Path(os.environ.get("LOYALTY_BIN", ROOT / "target" / "debug" / "loyalty"))
    if not binary.is_file():
        log(f"{binary} is missing: run `make build` (or cargo build --bin loyalty) first")
        return 2
    schemathesis = Path(sys.executable).parent / "schemathesis"

    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    db_name = f"loyalty_fuzz_{secrets.token_hex(6)}"
    db_url = create_database(super_url, db_name)
    server = Server(binary, db_url, WORK / "server.log")
    problems: list[str] = []
    runs: list[RoleRun] = []
    started = time.monotonic()
    try:
        server.run("migrate")
        server.run("create-super-admin", "--username", SUPER_ADMIN, env={"SUPER_ADMIN_PASSWORD": PASSWORD})
        server.start()
        api = Api(server.base)
        super_token = api.login(SUPER_ADMIN)
        a_mark, b_mark = f"sello{secrets.token_hex(4)}", f"sello{secrets.token_hex(4)}"
        a = seed_company(api, super_token, COMPANY_A, a_mark)
        b = seed_company(api, super_token, COMPANY_B, b_mark)
        impersonation = api.call("POST", "/super/impersonate", super_token, {"companyId": a["id"]})["token"]
        log(f"server on {server.base}, database {db_name}, companies {COMPANY_A} and {COMPANY_B} seeded; seed {seed}")

        def fuzz(round_: int, role: str, token: str | None, company: str) -> bool:
            """One caller's run over A's fresh records; false when the server died."""
            config = WORK / role / "schemathesis.toml"
            config.parent.mkdir(parents=True)
            acting = acting_admin(api, super_token, a["id"])
            replenish(api, acting, round_)
            write_config(config, mode, *live_records(api, acting))
            return fuzz_prepared(role, token, company, config)

        def fuzz_prepared(role: str, token: str | None, company: str, config: Path) -> bool:
            run = fuzz_role(schemathesis, server.base, role, token, mode, seed, config)
            run.problems += unthrottled_password_checks(run, company)
            runs.append(run)
            report(run)
            if not server.alive():
                problems.append(f"the server died while fuzzing as {role}")
                return False
            return True

        problems += probe_password_guessing(api, acting_admin(api, super_token, a["id"]), a["cajero"], COMPANY_A)

        # Company A's roles, the least privileged first: the admin may delete the others' users.
        tenant_roles = [
            ("anonymous", None),
            ("cajero", a["cajero"]),
            ("supervisor", a["supervisor"]),
            ("impersonation", impersonation),
            ("admin", a["admin"]),
        ]
        check_url = url_with(super_url, database=db_name)
        b_before = schema_digest(check_url, COMPANY_B)
        a_before = schema_digest(check_url, COMPANY_A)
        alive = True
        for round_, (role, token) in enumerate(tenant_roles, start=1):
            alive = alive and fuzz(round_, role, token, COMPANY_A)
        problems += compare_companies(check_url, COMPANY_B, b_before, COMPANY_A, a_before)

        # Company B's tokens against A's ids and documents: B must never get, nor change, A's data.
        if alive:
            acting = acting_admin(api, super_token, a["id"])
            replenish(api, acting, len(tenant_roles) + 1)
            records = live_records(api, acting)
            a_before, b_before = schema_digest(check_url, COMPANY_A), schema_digest(check_url, COMPANY_B)
            for role, token in (("b_cajero", b["cajero"]), ("b_admin", b["admin"])):
                config = WORK / role / "schemathesis.toml"
                config.parent.mkdir(parents=True)
                write_config(config, mode, *records)
                alive = alive and fuzz_prepared(role, token, COMPANY_B, config)
                runs[-1].problems += leaked(runs[-1], a_mark, COMPANY_A)
            problems += compare_companies(check_url, COMPANY_A, a_before, COMPANY_B, b_before)

        # Last, the super admin: it may legitimately change or delete any company.
        if alive:
            fuzz(len(tenant_roles) + 2, "super_admin", super_token, COMPANY_A)
    except Exception:  # a set-up step between runs failed: report it with the runs so far
        problems.append(f"the run stopped: {traceback.format_exc().strip()}")
    finally:
        server.stop()
        errors = server.server_errors() if server.log_path.exists() else []
        drop_database(super_url, db_name)

    for run in runs:
        if run.exit_code != 0 or run.failures or run.errors:
            problems.append(
                f"{run.role}: schemathesis exit {run.exit_code}, {run.failures} failed checks, {run.errors} errors "
                f"(see {(WORK / run.role / 'output.txt').relative_to(ROOT)})"
            )
        problems += [f"{run.role}: {problem}" for problem in run.problems]
    if errors:
        problems.append(f"{len(errors)} error lines (answers of 500 or more, their causes, panics) in fuzz/.work/server.log")

    total = sum(r.requests for r in runs)
    print()
    print(f"{'role':<14} {'operations':>10} {'requests':>9} {'failures':>9} {'seconds':>8}")
    for r in runs:
        print(f"{r.role:<14} {r.operations:>10} {r.requests:>9} {r.failures + r.errors:>9} {r.seconds:>8.0f}")
    print(
        f"fuzz ({args.mode}, seed {seed}): {len(runs)} roles, {total} requests in {time.monotonic() - started:.0f} s, "
        f"{len(problems)} problems"
    )
    for problem in problems:
        print(f"  FAILED {problem}")
    for run in runs:
        if run.exit_code != 0 or run.failures or run.errors:
            print(f"\n--- {run.role} ---\n{failure_details(run)}")
    for line in errors[:5]:
        print(f"server: {line[:1000]}")
    return 1 if problems else 0


def compare_companies(url: str, prefix: str, before: dict[str, str], control: str, control_before: dict[str, str]) -> list[str]:
    """Company `prefix` is unchanged after the runs with the other company's tokens, and
    `control`, the company whose tokens were fuzzed, is not (the comparison sees a change)."""
    problems = []
    after = schema_digest(url, prefix)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if changed:
        problems.append(f"company {prefix} changed while company {control}'s tokens were fuzzed: {', '.join(changed)}")
    else:
        log(f"company {prefix} unchanged: {len(before) - 1} tables and its platform row, byte for byte")
    if schema_digest(url, control) == control_before:
        problems.append(f"company {control}'s digest did not change either: the comparison sees nothing")
    return problems


def interactions(run: RoleRun):
    """Every request of a run that got an answer, with its answer, oldest first."""
    found = []
    for line in run.ndjson.read_text().splitlines():
        finished = json.loads(line).get("ScenarioFinished")
        for interaction in ((finished or {}).get("recorder", {}).get("interactions") or {}).values():
            if interaction.get("response"):
                found.append(interaction)
    return sorted(found, key=lambda i: i.get("timestamp") or 0)


def content(message: dict) -> bytes:
    body = message.get("content", message.get("body"))
    if isinstance(body, dict) and "$base64" in body:
        return base64.b64decode(body["$base64"])
    return body.encode() if isinstance(body, str) else b""


def leaked(run: RoleRun, mark: str, owner: str) -> list[str]:
    """Answers of this run that carry the mark of company `owner`'s records. The public pages
    (`/api/public/...`, a company's privacy notice with its name) are everyone's to read."""
    leaks = [
        f"{i['request']['method']} {i['request']['uri']} -> {i['response']['status_code']}"
        for i in interactions(run)
        if mark.encode() in content(i["response"])
        and not urllib.parse.urlsplit(i["request"]["uri"]).path.startswith("/api/public/")
    ]
    if leaks:
        return [f"{len(leaks)} answers carried company {owner}'s data, first: {leaks[0]}"]
    log(f"{run.role}: no answer of {run.requests} carried company {owner}'s data")
    return []


def unthrottled_password_checks(run: RoleRun, company: str) -> list[str]:
    """Login names whose wrong passwords kept being checked (401) beyond the throttle's limit.

    Logins and a cajero's void approvals (a login attempt of the approver) count alike; a
    success clears a name's count, as on the server.
    """
    wrong: dict[str, int] = {}
    worst: dict[str, int] = {}
    for i in interactions(run):
        request = i["request"]
        path = urllib.parse.urlsplit(request["uri"]).path
        if request["method"] != "POST" or not (path == "/api/login" or (path.startswith("/api/transactions/") and path.endswith("/void"))):
            continue
        try:
            body = json.loads(content(request))
        except ValueError:
            continue
        name = body.get("username" if path == "/api/login" else "supervisorUsername") if isinstance(body, dict) else None
        if not isinstance(name, str) or not name.strip():
            continue
        name = name.strip().lower()
        if path != "/api/login" and "@" not in name:
            name = f"{name}@{company}"
        status = i["response"]["status_code"]
        if status == 200:
            wrong[name] = 0
        elif status == 401:
            wrong[name] = wrong.get(name, 0) + 1
            worst[name] = max(worst.get(name, 0), wrong[name])
    return [
        f"{count} wrong passwords for {name} were checked in a row (the throttle allows {THROTTLE_PER_NAME})"
        for name, count in sorted(worst.items())
        if count > THROTTLE_PER_NAME + THROTTLE_SLACK
    ]


def failure_details(run: RoleRun) -> str:
    """The FAILURES part of a schemathesis run's output (its reproduction commands included)."""
    text = (WORK / run.role / "output.txt").read_text(errors="replace")
    start = text.find("= FAILURES =")
    if start < 0:
        return "\n".join(text.splitlines()[-15:])
    end = min(i for i in (text.find("= WARNINGS =", start), text.find("= SUMMARY =", start), len(text)) if i >= 0)
    lines = text[start:end].splitlines()
    return "\n".join(lines[:80] + (["    ..."] if len(lines) > 80 else []))


def report(run: RoleRun) -> None:
    status = "ok" if run.exit_code == 0 and not run.failures and not run.errors and not run.problems else "FAILED"
    log(
        f"{run.role}: {run.operations} operations, {run.requests} requests, "
        f"{run.failures} failed checks, {run.errors} errors, {run.seconds:.0f} s: {status}"
    )


if __name__ == "__main__":
    sys.exit(main())
