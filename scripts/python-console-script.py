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
import stat
import subprocess
import sys
import tarfile
import tempfile

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
        return os.path.isdir(path)
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o022 == 0


def cache_root():
    """This user's cache folder for the command, or None where it cannot be had privately."""
    base = os.environ.get("LOCALAPPDATA") if os.name == "nt" else os.environ.get("XDG_CACHE_HOME")
    base = base or os.path.join(os.path.expanduser("~"), ".cache")
    owner = os.path.join(base, COMMAND)
    root = os.path.join(owner, "python-command")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return root if is_private(owner) and is_private(root) else None


def unpack(tarball, into):
    """Regular files and folders only, each inside `into`: no links, no absolute or climbing names."""
    total = 0
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


def package_files(tarball):
    """The unpacked package: made once per build, reused while private and complete."""
    root = cache_root()
    if root is None:
        # No private cache: a folder of this run, left for the system to clear (a simulator that
        # `simulator start` detached still reads its files after this process ends).
        scratch = tempfile.mkdtemp(prefix=f"{COMMAND}-")
        unpack(tarball, scratch)
        return scratch
    folder = os.path.join(root, digest_of(tarball))
    if is_private(folder) and os.path.isfile(os.path.join(folder, ".complete")):
        return folder
    staging = tempfile.mkdtemp(prefix=".unpacking-", dir=root)
    unpack(tarball, staging)
    open(os.path.join(staging, ".complete"), "w").close()
    try:
        os.rename(staging, folder)
    except OSError:
        # Another command unpacked the same build first, or a stale folder is in the way.
        shutil.rmtree(staging, ignore_errors=True)
        if not (is_private(folder) and os.path.isfile(os.path.join(folder, ".complete"))):
            fail(f"{folder} is not a complete copy of the package; remove it and run the command again")
    return folder


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
    script = command_file(os.path.join(package_files(tarball_path()), "package"))
    # The command ends with this process, as it would with jsii's script (src/cli/parent-watch.ts).
    env = dict(os.environ, CDKTF_SERVER_HOSTING_LAUNCHER="python")
    child = subprocess.Popen([node, script, *sys.argv[1:]], env=env)
    try:
        code = child.wait()
    except KeyboardInterrupt:
        # From a terminal, Ctrl-C reached the command too: it has a moment to end its own way.
        # Sent to this process alone, the command ends with it (it watches its parent).
        try:
            code = child.wait(timeout=2)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            code = -2
    sys.exit(128 - code if code < 0 else code)


main()
