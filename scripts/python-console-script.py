#!/usr/bin/env python
"""The wheel's command, started directly with Node.

jsii's own console script boots the jsii kernel and loads the whole library before the command
runs (5 to 11 seconds a command), and the kernel prints its notices (Node's end of life) as
Python byte strings. The command needs neither: it is one Node program among the package's
files. Those are unpacked once per user and package build into a private cache folder, checked
before every use, and the command runs from there with the `node` jsii itself would use.
scripts/build-wheel.js writes the three names below into each wheel.
"""
import hashlib
import json
import importlib.util
import os
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
import tempfile
import time

MODULE = "@@MODULE@@"
TARBALL = "@@TARBALL@@"
COMMAND = "@@COMMAND@@"
# The package's files are about 10 MB: a tarball holding much more is not this package's.
MAX_UNPACKED_BYTES = 256 * 1024 * 1024


def fail(message):
    sys.stderr.write(f"{COMMAND}: {message}\n")
    sys.exit(1)


def tarball_path():
    # find_spec locates the package without importing it (an import boots jsii).
    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        fail(f"the Python package {MODULE} is not installed in this environment; reinstall it with pip")
    return os.path.join(list(spec.submodule_search_locations)[0], "_jsii", TARBALL)


def digest_of(path):
    sha = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            sha.update(chunk)
    return sha.hexdigest()[:24]


def is_private(path):
    """A real folder of this user that no one else may write to (always so on Windows)."""
    if not hasattr(os, "getuid"):
        return os.path.isdir(path) and not os.path.islink(path)
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o022 == 0


def is_ours(path):
    """A real folder (not a link) of this user, whatever its mode."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and (not hasattr(os, "getuid") or info.st_uid == os.getuid())


def private_folder(path):
    """`path` as a folder of this user's alone, made so whatever the umask (mkdir's mode is masked
    by it: under umask 002 a new folder is group-writable); None where that cannot be had."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    if is_ours(path) and not is_private(path):
        try:
            os.chmod(path, 0o700)
        except OSError:
            return None
    return path if is_private(path) else None


CACHE_DIR_VARIABLE = "CDKTF_SERVER_HOSTING_CACHE_DIR"


def home_problem():
    """Why the user's cache folder cannot be found, in the words the Node command uses
    (src/cli/user-cache.ts); None when HOME (or the passwd entry, with HOME unset) is absolute."""
    home = os.environ.get("HOME")
    if home is None:
        # As Node's os.homedir: the passwd entry's home (as root, /root).
        home = os.path.expanduser("~")
        return None if os.path.isabs(home) else "HOME is not set and this user has no passwd entry"
    return None if os.path.isabs(home) else f"HOME ({json.dumps(home)}) is not an absolute path"


def cache_bases():
    """Where the cache may be, in order, each with why it is a fallback: CDKTF_SERVER_HOSTING_CACHE_DIR
    as given; else the user's cache folder (when XDG_CACHE_HOME or HOME is an absolute path), then
    the folder of this user's in the temporary folder the Node command falls back to as well."""
    given = os.environ.get(CACHE_DIR_VARIABLE)
    if given:
        return [(given, None)]
    base = os.environ.get("LOCALAPPDATA") if os.name == "nt" else os.environ.get("XDG_CACHE_HOME")
    problem = None
    if not (base and os.path.isabs(base)):
        problem = home_problem()
        base = None if problem else os.path.join(os.path.expanduser("~"), ".cache")
    user = os.getuid() if hasattr(os, "getuid") else "user"
    bases = [] if base is None else [(os.path.join(base, COMMAND), None)]
    why = problem or f"{base} cannot hold a folder of this user's alone"
    return bases + [(os.path.join(tempfile.gettempdir(), f"{COMMAND}-cache-{user}"), why)]


def cache_root():
    """This user's cache folder for the command, and the folder it is in when that is a fallback
    (the Node command is told to use it too: one folder, one line); None where none can be had
    privately, with why."""
    problems = []
    for owner, fallback in cache_bases():
        try:
            os.makedirs(os.path.dirname(owner), exist_ok=True)
        except OSError:
            problems.append(f"{os.path.dirname(owner)} could not be made")
            continue
        if private_folder(owner) is None:
            problems.append(f"{owner} is not this user's alone")
            continue
        root = os.path.join(owner, "python-command")
        if is_ours(root) and not is_private(root):
            # Others could write there (an earlier version made it under umask 002): nothing in it is trusted.
            shutil.rmtree(root, ignore_errors=True)
        if private_folder(root) is None:
            problems.append(f"{root} is not this user's alone")
            continue
        if fallback:
            sys.stderr.write(f"{COMMAND}: {fallback}: the cache is kept in {owner} instead\n")
        return root, (owner if fallback else None), None
    return None, None, "; ".join(problems)


def unpack(tarball, into):
    """Regular files and folders only, each inside `into`: no links, no absolute or climbing names.
    Returns each file's size, which every later use checks."""
    total = 0
    sizes = {}
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive:
            parts = member.name.replace("\\", "/").split("/")
            if member.name.startswith("/") or ".." in parts or not (member.isfile() or member.isdir()):
                fail(f"{TARBALL} holds {member.name!r}, which is not a file of the package; reinstall it with pip")
            target = os.path.join(into, *parts)
            if member.isdir():
                os.makedirs(target, exist_ok=True)
                continue
            total += member.size
            if total > MAX_UNPACKED_BYTES:
                fail(f"{TARBALL} is larger than the package can be; reinstall it with pip")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            source = archive.extractfile(member)
            with open(target, "wb") as out:
                shutil.copyfileobj(source, out)
            os.chmod(target, 0o755 if member.mode & 0o100 else 0o644)
            sizes["/".join(parts)] = member.size
    return sizes


COMPLETE = ".complete"
# An unpacking this old was cut short (its command was killed): no command takes that long.
STALE_UNPACKING_SECONDS = 600


def damage(folder):
    """What is wrong with a cached copy, or None when every file is there at its size."""
    if not is_private(folder):
        return "others may write to it"
    try:
        with open(os.path.join(folder, COMPLETE), encoding="utf-8") as file:
            sizes = json.load(file)
    except (OSError, ValueError):
        return "it was not unpacked completely"
    if not isinstance(sizes, dict):
        return "it was not unpacked completely"
    for name, size in sizes.items():
        try:
            actual = os.lstat(os.path.join(folder, *name.split("/"))).st_size
        except OSError:
            return f"{name} is missing"
        if actual != size:
            return f"{name} is {actual} bytes, not {size}"
    return None


def remove_stale_unpackings(root):
    for name in os.listdir(root):
        path = os.path.join(root, name)
        try:
            stale = name.startswith(".unpacking-") and time.time() - os.lstat(path).st_mtime > STALE_UNPACKING_SECONDS
        except OSError:
            continue
        if stale and is_ours(path):
            shutil.rmtree(path, ignore_errors=True)


def package_files(tarball):
    """The unpacked package: made once per build, reused while private and whole; the fallback
    cache folder the Node command is to use, if any; and a folder to remove when the command ends,
    if the copy is this run's alone."""
    root, fallback, why_none = cache_root()
    if root is None:
        if sys.argv[1:3] == ["simulator", "start"]:
            # A simulator in the background would read its copy after this command ended: a copy of its own would stay for good.
            fail(f"no folder of this user's alone can keep the package's files for a simulator in the background ({why_none}); "
                 f"set {CACHE_DIR_VARIABLE} to a folder of yours, or run the simulator in the foreground (simulator, without start)")
        scratch = tempfile.mkdtemp(prefix=f"{COMMAND}-")
        sys.stderr.write(f"{COMMAND}: no folder of this user's alone for the package's files ({why_none}): unpacked into {scratch} for this run\n")
        unpack(tarball, scratch)
        return scratch, None, scratch
    remove_stale_unpackings(root)
    folder = os.path.join(root, digest_of(tarball))
    problem = damage(folder) if os.path.lexists(folder) else None
    if os.path.lexists(folder) and problem is None:
        return folder, fallback, None
    staging = tempfile.mkdtemp(prefix=".unpacking-", dir=root)
    sizes = unpack(tarball, staging)
    with open(os.path.join(staging, COMPLETE), "w", encoding="utf-8") as file:
        json.dump(sizes, file)
    if problem is not None:
        sys.stderr.write(f"{COMMAND}: the cached copy of the package in {folder} cannot be used ({problem}): unpacked again\n")
        if not is_ours(folder):
            shutil.rmtree(staging, ignore_errors=True)
            fail(f"{folder} is not this user's folder; remove it and run the command again")
        shutil.rmtree(folder, ignore_errors=True)
    try:
        os.rename(staging, folder)
    except OSError:
        # Another command unpacked the same build first.
        shutil.rmtree(staging, ignore_errors=True)
        if damage(folder) is not None:
            fail(f"{folder} is not a complete copy of the package; remove it and run the command again")
    return folder, fallback, None


def command_file(package):
    """The file package.json's `bin` names for COMMAND (the cdktn flavour's command is cdktf's file)."""
    try:
        with open(os.path.join(package, "package.json"), encoding="utf-8") as file:
            bins = json.load(file).get("bin")
    except (OSError, ValueError):
        bins = None
    relative = bins.get(COMMAND) if isinstance(bins, dict) else None
    parts = relative.replace("\\", "/").split("/") if isinstance(relative, str) else []
    if not parts or relative.startswith("/") or ".." in parts:
        fail(f"the package's package.json names no file for the command {COMMAND}; reinstall it with pip")
    return os.path.join(package, *parts)


def main():
    node = os.environ.get("JSII_NODE") or shutil.which("node")
    if not node:
        fail("Node.js 20 or newer must be on PATH: the library and this command run on it")
    files, fallback, scratch = package_files(tarball_path())
    script = command_file(os.path.join(files, "package"))
    # The command ends with this process, as it would with jsii's script (src/cli/parent-watch.ts).
    env = dict(os.environ, CDKTF_SERVER_HOSTING_LAUNCHER="python")
    if fallback:
        env[CACHE_DIR_VARIABLE] = fallback
    child = subprocess.Popen([node, script, *sys.argv[1:]], env=env)

    def forward(signum, _frame):
        # SIGTERM or SIGHUP to this process alone: the command ends its own way, and this waits for it.
        try:
            child.send_signal(signum)
        except OSError:
            pass

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), forward)
    try:
        code = child.wait()
    except KeyboardInterrupt:
        # From a terminal, Ctrl-C reached the command too: it has a moment to end its own way.
        # Sent to this process alone, the command ends with it (it watches its parent).
        try:
            code = child.wait(timeout=2)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            code = -2
    # A copy of this run's alone goes with it.
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(128 - code if code < 0 else code)


main()
