"""Where the command line writes: checked before any work, and never replacing what is not ours.

An output is one of
- a regular file or a new name: written to a hidden temporary file in the same folder, then
  renamed over the name, so a failure or a signal leaves the old file (or nothing) behind;
  a symlink is followed and its target written that way (the link stays);
- a device, a FIFO or /dev/fd/N: written through directly (never created, truncated or replaced);
- stdout ('-' or /dev/stdout).
An output that is the same file as an input or as another output is refused.
"""

import os
import shutil
import stat
import sys
import tempfile
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, List, Optional, Tuple

from .errors import InputError, Qwen3TTSError

STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


class OutputError(Qwen3TTSError):
    """An output could not be written (disk full, device error); nothing partial is left in a file."""


@dataclass
class Output:
    what: str  # how messages name it: "--output", "--codes-output", ...
    given: str  # as the user wrote it
    kind: str  # "file" (atomic), "stream" (device/FIFO: written through) or "stdout"
    path: Optional[Path] = None  # the file written (symlinks followed); None for stdout
    identity: Optional[Tuple[int, int]] = field(default=None, repr=False)  # (st_dev, st_ino) if it exists

    def __str__(self):
        return self.given

    @property
    def seekable(self) -> bool:
        return self.kind == "file"

    def write(self, data: bytes, replace: bool = True):
        """The whole content at once (replace=False: a file that exists by then is kept, and InputError)."""
        with self.open(replace) as f:
            f.write(data)

    @contextmanager
    def open(self, replace: bool = True):
        """A binary file for the content; an atomic output appears only when the block succeeds.
        A failed write (disk full, I/O error) is an OutputError naming this output."""
        with self._errors_named():
            if self.kind == "stdout":
                try:
                    fd = sys.stdout.fileno()
                except (AttributeError, OSError, ValueError):  # no descriptor (e.g. a test runner's capture)
                    yield sys.stdout.buffer
                    sys.stdout.buffer.flush()
                    return
                sys.stdout.flush()
                yield WholeWrites(fd)
            elif self.kind == "stream":
                fd = os.open(self.path, os.O_WRONLY)  # no O_CREAT, no O_TRUNC: a device or FIFO stays as it is
                try:
                    yield WholeWrites(fd)
                finally:
                    os.close(fd)
            else:
                with self._staged(replace) as tmp, open(tmp, "wb") as f:
                    yield f

    @contextmanager
    def staged(self):
        """For a file output: a temporary path beside it, renamed over it when the block succeeds."""
        if self.kind != "file":
            raise ValueError(f"{self.given} is not a regular file output")
        with self._errors_named(), self._staged() as tmp:
            yield tmp

    @contextmanager
    def _staged(self, replace: bool = True):
        tmp = _temp_beside(self.path)
        try:
            yield tmp
            if replace:
                os.replace(tmp, self.path)
            else:
                self._link_new(tmp)
        finally:
            if os.path.lexists(tmp):
                os.remove(tmp)

    def _link_new(self, tmp: str):
        # link() fails where the name exists, unlike rename(): a file made meanwhile is not replaced.
        try:
            os.link(tmp, self.path)
        except FileExistsError:
            raise InputError(f"{self.what} {self.given} exists; it was left as it is", code="exists") from None

    @contextmanager
    def _errors_named(self):
        try:
            yield
        except BrokenPipeError:
            raise  # the reader went away: the caller ends quietly
        except OSError as e:
            raise OutputError(f"cannot write {self.what} {self.given}: {e.strerror or e}") from None


class WholeWrites:
    """A descriptor's `write` that writes all of the data or raises. A buffered file's write into a pipe
    returns short, without an error, when the reader leaves mid-write (`| head -c 100`): that would end
    the run with status 0 and a cut file instead of the reader-went-away status 141."""

    def __init__(self, fd: int):
        self.fd = fd

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        while view:
            view = view[os.write(self.fd, view):]
        return len(data)

    def flush(self):
        pass


def _identity(st) -> Tuple[int, int]:
    return (st.st_dev, st.st_ino)


def _temp_beside(path: Path) -> str:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)  # replacing a file keeps its permissions
    except FileNotFoundError:
        mode = new_file_mode()  # mkstemp makes 0600; a new result should look like any new file
    os.chmod(tmp, mode)
    return tmp


def _umask() -> int:
    umask = os.umask(0o022)  # the only way to read it; set back at once
    os.umask(umask)
    return umask


def new_file_mode() -> int:
    """The permissions `open(path, "w")` would give a new file under the user's umask."""
    return 0o666 & ~_umask()


def new_folder_mode() -> int:
    """The permissions `mkdir` would give a new folder under the user's umask."""
    return 0o777 & ~_umask()


@contextmanager
def folder_in_place(out: Path, replace: bool = False):
    """A hidden folder beside `out` to write into, renamed to `out` when the block ends without an error (else
    removed): `out` is absent or complete, never half-written. An existing `out` is replaced only where the
    caller has checked it is its own (`replace`); otherwise FileExistsError, and it is left as it is."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent))
    try:
        os.chmod(tmp, new_folder_mode())  # mkdtemp makes drwx------; the result is an ordinary folder
        yield tmp
        if os.path.lexists(out):
            if not replace:
                raise FileExistsError(f"{out} exists; choose a new name")
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _probe_folder(folder: Path, what: str, given: str):
    """Creating a file there is the only reliable test (read-only mounts, /proc, root's access())."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".write-test.", suffix=".tmp")
    except OSError as e:
        raise InputError(f"cannot write {what} {given}: folder {folder} is not writable ({e.strerror})") from None
    os.close(fd)
    os.remove(probe)


def resolve(given, what: str) -> Output:
    """Classify an output path and check that it can be written, without writing it."""
    given = os.fspath(given)
    if given in STDOUT_NAMES:
        try:
            st = os.fstat(sys.stdout.fileno())
        except (AttributeError, OSError, ValueError):  # no stdout with a descriptor (e.g. captured by a test runner)
            st = None
        return Output(what, given, "stdout", identity=_identity(st) if st and stat.S_ISREG(st.st_mode) else None)
    if not given:
        raise InputError(f"{what} is empty; give a file name")
    real = Path(os.path.realpath(given))  # follows every symlink, also a dangling one's target
    if given.startswith(("/dev/fd/", "/proc/self/fd/")):
        real = Path(given)  # an inherited descriptor: write through it, whatever it points to
    try:
        st = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):  # a new name (its folder is checked below)
        st = None
    except OSError as e:
        raise InputError(f"cannot write {what} {given}: {e.strerror}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(f"{what} {given} is a folder; give a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISSOCK(st.st_mode):
            raise InputError(f"{what} {given} is a socket; give a file name")
        if not os.access(real, os.W_OK):
            raise InputError(f"cannot write {what} {given}: permission denied")
        return Output(what, given, "stream", real, _identity(st))
    folder = real.parent
    if not folder.exists():
        raise InputError(f"cannot write {what} {given}: folder {folder} does not exist")
    if not folder.is_dir():
        raise InputError(f"cannot write {what} {given}: {folder} is not a folder")
    if st is not None and not os.access(real, os.W_OK):
        raise InputError(f"{what} {given} is read-only; choose another name or make it writable")
    _probe_folder(folder, what, given)
    return Output(what, given, "file", real, _identity(st) if st else None)


def new_file(given, what: str, overwrite: bool) -> Output:
    """`resolve` for the Python API: a regular file, not one that exists unless `overwrite`."""
    out = resolve(given, what)
    if out.kind != "file":
        raise InputError(f"{what} {given} is not a regular file; give a file name", field="path")
    if out.identity is not None and not overwrite:
        raise InputError(f"{what} {given} exists; pass overwrite=True to replace it", field="path", code="exists")
    return out


def input_files(label: str, path) -> List[Tuple[str, Tuple[int, int]]]:
    """(label, identity) of an input file, or of every file under an input folder."""
    if path is None:
        return []
    path = os.fspath(path)
    found = []
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for name in names:
                full = os.path.join(root, name)
                try:
                    found.append((f"{label} file {full}", _identity(os.stat(full))))
                except OSError:
                    pass
    elif os.path.exists(path):
        found.append((label, _identity(os.stat(path))))
    return found


def check_distinct(outputs: Iterable[Output], inputs: Iterable[Tuple[str, Tuple[int, int]]]):
    """Refuse an output that is an input file or the same file as another output."""
    inputs = list(inputs)
    seen = {}
    for out in outputs:
        if out.identity is not None:
            for label, identity in inputs:
                if identity == out.identity:
                    raise InputError(f"{out.what} {out} is the same file as the {label}; "
                                     "choose another output name so the input is not overwritten")
        key = "stdout" if out.kind == "stdout" else (out.identity or str(out.path))
        if key in seen:
            raise InputError(f"{out.what} {out} and {seen[key].what} {seen[key]} are the same file; "
                             "give each output its own name")
        seen[key] = out


def stage_all(stack: ExitStack, items: List[Tuple[Output, bytes]]):
    """Write outputs as part of a larger set: each atomic file to a temporary file beside it, renamed into place
    when `stack` closes without an error, together with the others staged on it (`Output.staged`), so all of
    them land or none does; a stream or stdout, which cannot wait, is written now, after the files."""
    for out, data in items:
        if out.kind == "file":
            tmp = stack.enter_context(out.staged())
            with out._errors_named(), open(tmp, "wb") as f:
                f.write(data)
    for out, data in items:
        if out.kind != "file":
            out.write(data)


def write_all(items: List[Tuple[Output, bytes]]):
    """Write several outputs all or none: every atomic file is staged first, then renamed in turn."""
    staged = []
    try:
        for out, data in items:
            if out.kind == "file":
                tmp = _temp_beside(out.path)
                staged.append((tmp, out))
                try:
                    with open(tmp, "wb") as f:
                        f.write(data)
                except OSError as e:
                    reason = e.strerror or e
                    raise OutputError(f"cannot write {out.what} {out.given}: {reason}; nothing written") from None
        for out, data in items:
            if out.kind != "file":
                out.write(data)
        for tmp, out in staged:
            os.replace(tmp, out.path)
    finally:
        for tmp, _ in staged:
            if os.path.lexists(tmp):
                os.remove(tmp)
