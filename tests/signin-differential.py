#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The sign-in differential: Dynoscope against botocore on the same files and
the same test server (tests/aws-signin-server.py).

Usage: signin-differential.py DYNOSCOPE_CLI [CASE …]      (TAP on stdout)

Every folder of tests/signin-cases/ (except those starting with "_") is a
case: `config`, optional `credentials`, optional `sso-cache/*.json` (copied to
~/.aws/sso/cache/ under the same names), optional other files (copied to the
home folder), and `case.json`:

  {
    "description": "…",
    "profile": "dev",                 null: no --profile (the default chain)
    "env": {"NAME": "value"},         extra environment of both sides
    "mfa_code": "123456",             botocore's mfa_prompter answers it; --mfa-code for Dynoscope
    "scenario": {…},                  merged (per top-level key, one level deep) onto
                                      signin-cases/_scenario.json for this case's server
    "expect": "success" | "failure",
    "free": ["RoleSessionName"],      parameters compared by shape only (see FREE below)
    "operations": ["AssumeRole", …],  the operations botocore must send (a check of the case)
    "arn": "arn:aws:sts::…",          the identity both must end with (optional)
    "signing_region": "eu-west-1",    every signed request of both must use it (optional)
    "compare_cache": true,            the SSO cache files after both runs must hold the same
                                      startUrl, region, tokens and registration
    "mode": "differential"            (default) botocore, reset, Dynoscope, compare
          | "dynoscope-login"         `dynoscope-cli login` writes the token cache; botocore
                                      then gets credentials from it
          | "awscli-login"            the AWS CLI v2 (`aws sso login`, in-process, endpoints
                                      redirected) writes the cache; Dynoscope reads it
  }

In files and env values, @HOME@ is the run's home folder and @SERVER@ the test
server's URL. Both sides run with HOME, AWS_CONFIG_FILE and
AWS_SHARED_CREDENTIALS_FILE pointing at a fresh copy of the case, and
AWS_EC2_METADATA_DISABLED=true. Dynoscope gets AWS_ENDPOINT_URL_STS,
AWS_ENDPOINT_URL_SSO and AWS_ENDPOINT_URL_SSO_OIDC; botocore 1.29 predates
those, so this harness redirects it itself: in the botocore child process
Session.create_client gets endpoint_url=<the same URL> for sts, sso and
sso-oidc (the signing region stays the client's region, as the newer SDKs do
with AWS_ENDPOINT_URL_STS).

COMPARED: per logged request the service, operation, parameters (secrets are
fingerprints in the server's log, so equal fingerprints mean equal tokens),
the signing access key, signing region, session token fingerprint and the
answer's status; then GetCallerIdentity's Account/Arn/UserId from botocore's
frozen credentials against `dynoscope-cli whoami`, and the expiration instant
of botocore's refreshable credentials against whoami's Expiration.

FREE: a parameter that is by nature free is compared by shape only. That is
a default RoleSessionName (botocore: botocore-session-<unix time>, Dynoscope:
dynoscope-<unix time>): both must satisfy STS's pattern [\\w+=,.@-]{2,64}, and
where the session name shows up in the assumed-role ARN or UserId it is
replaced by "<session>" on both sides. RegisterClient's clientName is free in
the login cases (each tool names itself).
"""

import copy
import datetime
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "signin-cases")
SERVER = os.path.join(HERE, "aws-signin-server.py")
PYTHON = "/usr/bin/python3"
SESSION_RE = re.compile(r"^[\w+=,.@-]{2,64}$")
DEADLINE = 300  # seconds per process, wall clock


# -- the server ---------------------------------------------------------------

class Server:
    def __init__(self, scenario, workdir):
        self.scenario = scenario
        path = os.path.join(workdir, "scenario.json")
        with open(path, "w") as f:
            json.dump(scenario, f)
        self.proc = subprocess.Popen([PYTHON, SERVER, "--scenario", path,
                                      "--log", os.path.join(workdir, "requests.jsonl")],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.strip().isdigit():
            self.proc.kill()
            raise RuntimeError("aws-signin-server.py did not start")
        self.url = "http://127.0.0.1:%s" % line.strip()

    def call(self, method, path):
        req = urllib.request.Request(self.url + path, method=method, data=b"" if method == "POST" else None)
        with urllib.request.urlopen(req, timeout=60) as answer:
            return json.loads(answer.read() or b"null")

    def log(self):
        return self.call("GET", "/_test/log")

    def reset(self, keep_tokens=False):
        self.call("POST", "/_test/reset" + ("?keep=tokens" if keep_tokens else ""))

    def stop(self):
        self.proc.kill()
        self.proc.wait()


# -- a run's home folder ------------------------------------------------------

def substitute(text, home, url):
    return text.replace("@HOME@", home).replace("@SERVER@", url)


def make_home(case_dir, root, url):
    home = os.path.join(root, "home")
    os.makedirs(os.path.join(home, ".aws"), mode=0o700)
    for name in os.listdir(case_dir):
        src = os.path.join(case_dir, name)
        if name == "case.json":
            continue
        if name in ("config", "credentials"):
            with open(src) as f:
                text = substitute(f.read(), home, url)
            with open(os.path.join(home, ".aws", name), "w") as f:
                f.write(text)
        elif name == "sso-cache":
            cache = os.path.join(home, ".aws", "sso", "cache")
            os.makedirs(cache, mode=0o700)
            for entry in os.listdir(src):
                dst = os.path.join(cache, entry)
                shutil.copyfile(os.path.join(src, entry), dst)
                os.chmod(dst, 0o600)
        elif os.path.isfile(src):
            shutil.copyfile(src, os.path.join(home, name))
    return home


def environment(case, home, url):
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home,
           "AWS_CONFIG_FILE": os.path.join(home, ".aws", "config"),
           "AWS_SHARED_CREDENTIALS_FILE": os.path.join(home, ".aws", "credentials"),
           "AWS_EC2_METADATA_DISABLED": "true",
           "AWS_ENDPOINT_URL_STS": url, "AWS_ENDPOINT_URL_SSO": url, "AWS_ENDPOINT_URL_SSO_OIDC": url}
    for var in ("DYN_BUILD_ROOT", "DYN_SOURCE_ROOT", "GSETTINGS_BACKEND", "GSETTINGS_SCHEMA_DIR",
                "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if var in os.environ:
            env[var] = os.environ[var]
    for name, value in case.get("env", {}).items():
        env[name] = substitute(value, home, url)
    return env


# -- botocore, in a child process with the case's environment ------------------

def botocore_child(profile, mfa_code):
    """Runs in the child: resolve, freeze, GetCallerIdentity; JSON on stdout."""
    import botocore.session

    original = botocore.session.Session.create_client
    redirect = {"sts": "AWS_ENDPOINT_URL_STS", "sso": "AWS_ENDPOINT_URL_SSO",
                "sso-oidc": "AWS_ENDPOINT_URL_SSO_OIDC"}

    def create_client(self, service_name, *args, **kwargs):
        var = redirect.get(service_name)
        if var and os.environ.get(var) and not kwargs.get("endpoint_url"):
            kwargs["endpoint_url"] = os.environ[var]
        return original(self, service_name, *args, **kwargs)

    botocore.session.Session.create_client = create_client
    result = {}
    try:
        session = botocore.session.Session(profile=profile)
        if mfa_code is not None:
            provider = session.get_component("credential_provider").get_provider("assume-role")
            provider._prompter = lambda prompt: mfa_code
        credentials = session.get_credentials()
        if credentials is None:
            raise RuntimeError("botocore found no credentials")
        frozen = credentials.get_frozen_credentials()
        expiry = getattr(credentials, "_expiry_time", None)
        result["access_key"] = frozen.access_key
        result["expiration"] = expiry.isoformat() if expiry else None
        sts = session.create_client("sts", aws_access_key_id=frozen.access_key,
                                    aws_secret_access_key=frozen.secret_key,
                                    aws_session_token=frozen.token)
        identity = sts.get_caller_identity()
        result["identity"] = {k: identity[k] for k in ("Account", "Arn", "UserId")}
        result["ok"] = True
    except Exception as e:  # the error of a case that must fail
        result["ok"] = False
        result["error"] = "%s: %s" % (type(e).__name__, e)
    print(json.dumps(result))


def awscli_login_child(profile):
    """Runs in the child: the AWS CLI v2's `aws sso login` with its endpoints redirected."""
    from awscli.clidriver import create_clidriver
    import botocore.session  # after awscli: this is the AWS CLI v2's own botocore

    original = botocore.session.Session.create_client
    redirect = {"sts": "AWS_ENDPOINT_URL_STS", "sso": "AWS_ENDPOINT_URL_SSO",
                "sso-oidc": "AWS_ENDPOINT_URL_SSO_OIDC"}

    def create_client(self, service_name, *args, **kwargs):
        var = redirect.get(service_name)
        if var and os.environ.get(var) and not kwargs.get("endpoint_url"):
            kwargs["endpoint_url"] = os.environ[var]
        return original(self, service_name, *args, **kwargs)

    botocore.session.Session.create_client = create_client
    sys.exit(create_clidriver().main(["sso", "login", "--no-browser", "--profile", profile]))


def run_botocore(case, env):
    args = [PYTHON, os.path.abspath(__file__), "--botocore-child", json.dumps(case.get("profile")),
            json.dumps(case.get("mfa_code"))]
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=DEADLINE)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"ok": False, "error": "botocore child crashed: " + proc.stderr[-2000:]}


def run_dynoscope(cli, case, env, command="whoami"):
    args = [cli, command]
    if case.get("profile") is not None:
        args += ["--profile", case["profile"]]
    if command == "whoami" and case.get("mfa_code") is not None:
        args += ["--mfa-code", case["mfa_code"]]
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=DEADLINE,
                          stdin=subprocess.DEVNULL)
    result = {"ok": proc.returncode == 0, "stdout": proc.stdout, "stderr": proc.stderr}
    if command == "whoami" and proc.returncode == 0:
        try:
            who = json.loads(proc.stdout)
            result["identity"] = {k: who.get(k) for k in ("Account", "Arn", "UserId")}
            result["expiration"] = who.get("Expiration")
        except ValueError:
            result["ok"] = False
            result["error"] = "whoami printed no JSON: " + proc.stdout[:500]
    elif not result["ok"]:
        result["error"] = "exit %d: %s" % (proc.returncode, proc.stderr.strip()[-800:])
    return result


# -- comparing ----------------------------------------------------------------

def normalize_log(log, free):
    """The comparable part of each request, and the free session names seen."""
    sessions = set()
    out = []
    for entry in log:
        params = dict(entry.get("parameters") or {})
        for name in free:
            if name in params:
                value = params[name]
                if name == "RoleSessionName":
                    sessions.add(value)
                params[name] = "<free: %s>" % ("valid" if SESSION_RE.match(str(value)) else "INVALID " + str(value))
        out.append({"service": entry.get("service"), "operation": entry.get("operation"),
                    "parameters": params, "signing_access_key": entry.get("signing_access_key"),
                    "signing_region": entry.get("signing_region"),
                    "signing_session_token": entry.get("signing_session_token"),
                    "status": entry.get("status"), "error": entry.get("error")})
    return out, sessions


def normalize_identity(identity, sessions):
    if not identity:
        return identity
    out = dict(identity)
    for key in ("Arn", "UserId"):
        for s in sessions:
            if out.get(key, "").endswith("/" + s) or out.get(key, "").endswith(":" + s):
                out[key] = out[key][: -len(s)] + "<session>"
    return out


def instant(text):
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return datetime.datetime.fromtimestamp(text, datetime.timezone.utc)
    value = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    return value


def leaked_secret(text, scenario):
    """A secret or token of the scenario or of the server's issuing in @text, or None."""
    fixed = [u["secret"] for u in scenario.get("users", {}).values()]
    fixed += list(scenario.get("web_identity_tokens", {}))
    sso = scenario.get("sso", {})
    fixed += sso.get("access_tokens", []) + sso.get("refresh_tokens_valid", []) + list(sso.get("clients", {}).values())
    if scenario.get("container", {}).get("authorization"):
        fixed.append(scenario["container"]["authorization"])
    for secret in fixed:
        if secret and secret in text:
            return secret[:4] + "…"
    m = re.search(r"IQoJb3JpZ2luX2Vj|aoa[0-9a-f]{16}|aor[0-9a-f]{16}|secret-[0-9a-f]{16}|device-[0-9a-f]{16}"
                  r"|aoa-expired|(?<![0-9a-f/])[0-9a-f]{40}(?![0-9a-f.])", text)
    return m.group(0)[:6] + "…" if m else None


def first_difference(a, b):
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        if x != y:
            return i, x, y
    return None


def merged_scenario(case):
    with open(os.path.join(CASES, "_scenario.json")) as f:
        scenario = json.load(f)
    for key, value in case.get("scenario", {}).items():
        if isinstance(value, dict) and isinstance(scenario.get(key), dict):
            scenario[key].update(value)
        else:
            scenario[key] = value
    return scenario


# -- one case -----------------------------------------------------------------

class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def case_differential(cli, case, case_dir, server, root):
    free = case.get("free", [])
    home_b = make_home(case_dir, os.path.join(root, "botocore"), server.url)
    boto = run_botocore(case, environment(case, home_b, server.url))
    log_b, sessions_b = normalize_log(server.log(), free)
    server.reset()
    home_d = make_home(case_dir, os.path.join(root, "dynoscope"), server.url)
    dyn = run_dynoscope(cli, case, environment(case, home_d, server.url))
    log_d, sessions_d = normalize_log(server.log(), free)
    notes = ["botocore: %s" % (boto.get("identity", {}).get("Arn") if boto["ok"] else boto.get("error")),
             "dynoscope: %s" % ((dyn.get("identity") or {}).get("Arn") if dyn["ok"] else dyn.get("error"))]

    expect_ok = case.get("expect", "success") == "success"
    check(boto["ok"] == expect_ok, "the case is wrong: botocore %s (%s)"
          % ("failed" if expect_ok else "succeeded", boto.get("error")))
    if "operations" in case:
        ops = [e["operation"] for e in log_b]
        check(ops == case["operations"], "the case is wrong: botocore sent %s, the case expects %s"
              % (ops, case["operations"]))
    if "arn" in case and expect_ok:
        check(normalize_identity(boto["identity"], sessions_b)["Arn"] == case["arn"],
              "the case is wrong: botocore ended as %s" % boto["identity"]["Arn"])
    if "signing_region" in case:
        for log, who in ((log_b, "botocore"), (log_d, "dynoscope")):
            for e in log:
                if e["signing_region"] is not None:
                    check(e["signing_region"] == case["signing_region"],
                          "%s signed %s for %s, not %s" % (who, e["operation"], e["signing_region"],
                                                          case["signing_region"]))
    leak = leaked_secret(dyn.get("stdout", "") + dyn.get("stderr", ""), server.scenario)
    check(leak is None, "dynoscope-cli printed a secret or token (%s)" % leak)
    check(dyn["ok"] == expect_ok, "dynoscope %s where botocore %s: %s"
          % ("failed" if expect_ok else "succeeded", "succeeded" if expect_ok else "failed",
             dyn.get("error") or dyn.get("stdout")))
    diff = first_difference(log_b, log_d)
    if diff:
        i, x, y = diff
        raise Failure("request %d differs:\n  botocore:  %s\n  dynoscope: %s" % (i + 1, json.dumps(x, sort_keys=True),
                                                                                 json.dumps(y, sort_keys=True)))
    if case.get("compare_cache"):
        fields = ("startUrl", "region", "accessToken", "refreshToken", "clientId", "clientSecret")
        cb, cd = cache_files(home_b), cache_files(home_d)
        check(sorted(cb) == sorted(cd), "cache files differ: botocore %s, dynoscope %s" % (sorted(cb), sorted(cd)))
        for name in cb:
            with open(cb[name]) as f:
                tb = json.load(f)
            with open(cd[name]) as f:
                td = json.load(f)
            for field in fields:
                check(tb.get(field) == td.get(field), "after the run the cache file %s differs in %s"
                      " (botocore %s, dynoscope %s)" % (name, field, fingerprint(str(tb.get(field))),
                                                        fingerprint(str(td.get(field)))))
    if expect_ok:
        ib = normalize_identity(boto["identity"], sessions_b)
        idn = normalize_identity(dyn["identity"], sessions_d)
        check(ib == idn, "identities differ: botocore %s, dynoscope %s" % (ib, idn))
        check(instant(boto["expiration"]) == instant(dyn["expiration"]),
              "expirations differ: botocore %s, dynoscope %s" % (boto["expiration"], dyn["expiration"]))
    return notes


def cache_files(home):
    cache = os.path.join(home, ".aws", "sso", "cache")
    return {n: os.path.join(cache, n) for n in sorted(os.listdir(cache))} if os.path.isdir(cache) else {}


def fingerprint(value):
    return "sha256:" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:12]


def case_dynoscope_login(cli, case, case_dir, server, root):
    """dynoscope-cli login writes the cache, botocore reads it."""
    home = make_home(case_dir, os.path.join(root, "shared"), server.url)
    env = environment(case, home, server.url)
    login = run_dynoscope(cli, case, env, command="login")
    check(login["ok"], "dynoscope-cli login failed: %s" % login.get("error"))
    ops = [e["operation"] for e in server.log()]
    check(ops[:2] == ["RegisterClient", "StartDeviceAuthorization"] and ops[-1] == "CreateToken",
          "dynoscope-cli login sent %s" % ops)
    leak = leaked_secret(login["stdout"] + login["stderr"], server.scenario)
    check(leak is None, "dynoscope-cli login printed a secret or token (%s)" % leak)
    files = cache_files(home)
    want = case["cache_file"]
    check(want in files, "dynoscope wrote %s, not %s" % (list(files), want))
    mode = stat.S_IMODE(os.stat(files[want]).st_mode)
    dir_mode = stat.S_IMODE(os.stat(os.path.dirname(files[want])).st_mode)
    check(mode == 0o600 and dir_mode == 0o700, "cache file mode %o, folder %o (want 600, 700)" % (mode, dir_mode))
    with open(files[want]) as f:
        token = json.load(f)
    for field in case.get("cache_fields", ["startUrl", "region", "accessToken", "expiresAt"]):
        check(field in token, "the cache file has no %s (it has %s)" % (field, sorted(token)))
    server.reset(keep_tokens=True)
    boto = run_botocore(case, env)
    check(boto["ok"], "botocore could not use dynoscope's cache: %s" % boto.get("error"))
    bearer = [e["parameters"].get("bearer_token") for e in server.log() if e["operation"] == "GetRoleCredentials"]
    check(bearer == [fingerprint(token["accessToken"])],
          "botocore's GetRoleCredentials used %s, the cache holds %s" % (bearer, fingerprint(token["accessToken"])))
    if "arn" in case:
        check(boto["identity"]["Arn"] == case["arn"], "botocore ended as %s" % boto["identity"]["Arn"])
    return ["botocore: %s from %s" % (boto["identity"]["Arn"], want)]


def case_awscli_login(cli, case, case_dir, server, root):
    """The AWS CLI v2 writes the cache (`aws sso login`), Dynoscope reads it."""
    home = make_home(case_dir, os.path.join(root, "shared"), server.url)
    env = environment(case, home, server.url)
    proc = subprocess.run([PYTHON, os.path.abspath(__file__), "--awscli-login-child", case["profile"]],
                          env=env, capture_output=True, text=True, timeout=DEADLINE, stdin=subprocess.DEVNULL)
    check(proc.returncode == 0, "aws sso login failed: %s" % proc.stderr[-1500:])
    files = cache_files(home)
    want = case["cache_file"]
    check(want in files, "the AWS CLI wrote %s, not %s" % (list(files), want))
    with open(files[want]) as f:
        token = json.load(f)
    server.reset(keep_tokens=True)
    dyn = run_dynoscope(cli, case, env)
    check(dyn["ok"], "dynoscope could not use the AWS CLI's cache: %s" % dyn.get("error"))
    leak = leaked_secret(dyn["stdout"] + dyn["stderr"], server.scenario)
    check(leak is None, "dynoscope-cli printed a secret or token (%s)" % leak)
    log = server.log()
    check(not any(e["service"] == "sso-oidc" for e in log),
          "dynoscope went to OIDC although the cache is valid: %s" % [e["operation"] for e in log])
    bearer = [e["parameters"].get("bearer_token") for e in log if e["operation"] == "GetRoleCredentials"]
    check(bearer == [fingerprint(token["accessToken"])],
          "dynoscope's GetRoleCredentials used %s, the cache holds %s" % (bearer, fingerprint(token["accessToken"])))
    if "arn" in case:
        check(dyn["identity"]["Arn"] == case["arn"], "dynoscope ended as %s" % dyn["identity"]["Arn"])
    return ["dynoscope: %s from %s" % (dyn["identity"]["Arn"], want)]


MODES = {"differential": case_differential, "dynoscope-login": case_dynoscope_login,
         "awscli-login": case_awscli_login}


def main(argv):
    if len(argv) >= 2 and argv[1] == "--botocore-child":
        return botocore_child(json.loads(argv[2]), json.loads(argv[3]))
    if len(argv) >= 2 and argv[1] == "--awscli-login-child":
        return awscli_login_child(argv[2])
    if len(argv) < 2:
        print("usage: signin-differential.py DYNOSCOPE_CLI [CASE …]", file=sys.stderr)
        return 2
    cli = os.path.abspath(argv[1])
    names = argv[2:] or sorted(n for n in os.listdir(CASES)
                               if not n.startswith("_") and os.path.isdir(os.path.join(CASES, n)))
    print("TAP version 13")
    print("1..%d" % len(names))
    failed = 0
    for number, name in enumerate(names, 1):
        case_dir = os.path.join(CASES, name)
        with open(os.path.join(case_dir, "case.json")) as f:
            case = json.load(f)
        root = tempfile.mkdtemp(prefix="signin-diff-")
        server = Server(merged_scenario(case), root)
        try:
            notes = MODES[case.get("mode", "differential")](cli, case, case_dir, server, root)
            print("ok %d - %s" % (number, name))
            for note in notes:
                print("# " + note)
        except Failure as e:
            failed += 1
            print("not ok %d - %s" % (number, name))
            for line in str(e).splitlines():
                print("# " + line)
        except Exception as e:  # a crash of the harness is a failure of the case, too
            failed += 1
            print("not ok %d - %s" % (number, name))
            print("# harness error: %s: %s" % (type(e).__name__, e))
        finally:
            server.stop()
            shutil.rmtree(root, ignore_errors=True)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
