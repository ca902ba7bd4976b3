"""Engine specs for tools/match.py: parsing --engine/--each tokens, probing
an engine once for its name and options, and starting/stopping it inside a
game (python-chess asyncio protocol)."""

import asyncio
import os
import shlex
import subprocess

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # match.py reports it
    chess = None

STARTUP_TIMEOUT = 30.0
QUIT_TIMEOUT = 3.0


def parse_kv(tokens, what):
    out = {}
    for tok in tokens:
        if "=" not in tok:
            raise SystemExit("error: %s: expected KEY=VALUE, got %r" % (what, tok))
        k, v = tok.split("=", 1)
        out[k.strip()] = v
    return out


def parse_engine(tokens, each_tokens):
    """--engine tokens (+ --each tokens as defaults) -> engine config dict."""
    kv = {}
    options = {}
    for source in (each_tokens, tokens):
        for k, v in parse_kv(source, "--engine").items():
            if k.startswith("option."):
                options[k[len("option."):]] = v
            else:
                kv[k] = v
    unknown = set(kv) - {"cmd", "args", "name", "proto", "dir", "stderr"}
    if unknown:
        raise SystemExit("error: unknown engine key(s): %s" % ", ".join(sorted(unknown)))
    if "cmd" not in kv:
        raise SystemExit("error: --engine needs cmd=...")
    cmd = kv["cmd"]
    if os.path.exists(cmd) or not any(c.isspace() for c in cmd):
        argv = [cmd]
    else:
        argv = shlex.split(cmd)
    if kv.get("args"):
        argv += shlex.split(kv["args"])
    proto = kv.get("proto", "uci").lower()
    if proto == "cecp":
        proto = "xboard"
    if proto not in ("uci", "xboard"):
        raise SystemExit("error: proto must be uci or xboard, got %r" % proto)
    return {
        "argv": argv,
        "name": kv.get("name"),
        "proto": proto,
        "dir": kv.get("dir"),
        "stderr": kv.get("stderr"),
        "options": options,
    }


def parse_bool(v):
    return str(v).strip().lower() in ("1", "true", "yes", "on")


def _popen_kwargs(cfg):
    kw = {"setpgrp": True}
    if cfg.get("dir"):
        kw["cwd"] = cfg["dir"]
    if cfg.get("stderr"):
        kw["stderr"] = open(cfg["stderr"], "ab")
    else:
        kw["stderr"] = subprocess.DEVNULL
    return kw


def convert_option(opt, value):
    """Validate VALUE for python-chess Option OPT; returns the typed value."""
    if opt.type == "check":
        return parse_bool(value)
    if opt.type in ("button", "reset", "save"):
        return None
    return opt.parse(value)


def probe_engine(cfg, warn):
    """Start the engine once: learn its id name and options, validate the
    requested options.  Returns the updated cfg."""
    popen = (chess.engine.SimpleEngine.popen_xboard if cfg["proto"] == "xboard"
             else chess.engine.SimpleEngine.popen_uci)
    kw = _popen_kwargs(cfg)
    try:
        eng = popen(cfg["argv"], timeout=STARTUP_TIMEOUT, **kw)
    except Exception as exc:
        raise SystemExit("error: cannot start engine %s: %s: %s"
                         % (" ".join(cfg["argv"]), type(exc).__name__, exc))
    try:
        idname = eng.id.get("name") or os.path.basename(cfg["argv"][0])
        label = cfg.get("name") or idname
        valid = {}
        for name, value in cfg["options"].items():
            opt = eng.options.get(name)
            if opt is None:
                warn("engine %s does not advertise option %r: not set" % (label, name))
                continue
            if opt.is_managed():
                warn("engine %s: option %r is managed by the runner: not set" % (label, name))
                continue
            try:
                valid[opt.name] = convert_option(opt, value)
            except Exception as exc:
                warn("engine %s: bad value for option %r: %s: not set" % (label, name, exc))
        cfg = dict(cfg)
        cfg["idname"] = idname
        cfg["name"] = label
        cfg["valid_options"] = valid
        return cfg
    finally:
        try:
            eng.quit()
        except Exception:
            try:
                eng.close()
            except Exception:
                pass


async def _start_engine(cfg):
    popen = chess.engine.popen_xboard if cfg["proto"] == "xboard" else chess.engine.popen_uci
    transport, proto = await asyncio.wait_for(popen(cfg["argv"], **_popen_kwargs(cfg)),
                                              STARTUP_TIMEOUT)
    try:
        if cfg.get("valid_options"):
            await proto.configure(cfg["valid_options"])
        if cfg["proto"] == "uci":
            # Send ucinewgame + isready now, so that it (hash clearing etc.)
            # is not counted against the first move's clock.
            if hasattr(proto, "_ucinewgame"):
                proto._ucinewgame()
            await asyncio.wait_for(proto.ping(), STARTUP_TIMEOUT)
    except BaseException:
        try:
            transport.kill()
        except Exception:
            pass
        raise
    return transport, proto


async def _stop_engine(transport, proto):
    try:
        await asyncio.wait_for(proto.quit(), QUIT_TIMEOUT)
    except BaseException:
        pass
    try:
        if transport.get_returncode() is None:
            transport.kill()
    except Exception:
        pass
    try:
        transport.close()
    except Exception:
        pass
