"""
The interactive terminal inside a local sandbox: runs an interactive bash on a fresh pseudo-terminal and
relays it over stdin/stdout (the supervisor's pipes), so full-screen programs, job control, Ctrl+C as SIGINT
and window sizes all work as in a real terminal. Run as `python3 -I pty-helper.py COLS ROWS`.

stdin (from the host), frames of [kind: 1 byte][length: 4 bytes, big-endian][payload]:
  kind 0  keyboard input, written to the terminal as is
  kind 1  window size: rows, cols (2 bytes each, big-endian)
  end of stdin: the page went away (closed, idle): hang up like a closed terminal window
stdout (to the host), the same framing:
  kind 0  terminal output bytes
  kind 1  the shell ended: its exit status as ASCII digits (128+N for signal N)

Hanging up SIGHUPs the foreground job and ends the shell with SIGKILL, so bash cannot pass SIGHUP on to its
jobs: what was started with `&` or `nohup` keeps running. This process is a child subreaper, so those
orphans become its children, and it stays (reaping) until the last one ends; the supervisor runs it in a
pid namespace that dies with it, so nothing could outlive it otherwise.
"""
import ctypes
import errno
import fcntl
import os
import select
import signal
import struct
import sys
import termios

PR_SET_CHILD_SUBREAPER = 36
CHUNK = 65536


def write_all(fd, data):
    while data:
        try:
            n = os.write(fd, data)
        except InterruptedError:
            continue
        data = data[n:]


def send(kind, payload):
    write_all(1, struct.pack(">BI", kind, len(payload)) + payload)


def set_size(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def status_code(status):
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main():
    cols, rows = int(sys.argv[1]), int(sys.argv[2])
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    pid, master = os.forkpty()
    if pid == 0:
        # Python ignores these; a shell must start with the defaults (`yes | head` ends quietly on SIGPIPE).
        for sig in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(sig, signal.SIG_DFL)
        # A non-interactive bash (the supervisor's `bash -c`) drops PS1 from the environment; it comes under
        # another name.
        if "TERMINAL_PS1" in os.environ:
            os.environ["PS1"] = os.environ.pop("TERMINAL_PS1")
        os.execv("/bin/bash", ["bash", "-i"])
    set_size(master, rows, cols)
    os.set_blocking(0, False)

    pending = b""
    shell_status = None
    stdin_open = True
    master_open = True

    def hang_up():
        nonlocal master_open
        try:
            group = os.tcgetpgrp(master)
            if group != pid:
                os.killpg(group, signal.SIGHUP)
                os.killpg(group, signal.SIGCONT)
        except OSError:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    def reap():
        nonlocal shell_status
        while True:
            try:
                child, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return False
            if child == 0:
                return True
            if child == pid:
                shell_status = status

    while master_open:
        readers = [master] + ([0] if stdin_open else [])
        try:
            ready, _, _ = select.select(readers, [], [], 0.5)
        except InterruptedError:
            ready = []
        if master in ready:
            try:
                data = os.read(master, CHUNK)
            except OSError as e:
                # EIO: every process let go of the terminal (the shell ended and nothing else holds it).
                if e.errno != errno.EIO:
                    raise
                data = b""
            if data:
                send(0, data)
            elif shell_status is None:
                reap()
        if 0 in ready:
            try:
                chunk = os.read(0, CHUNK)
            except BlockingIOError:
                chunk = None
            if chunk == b"":
                stdin_open = False
                hang_up()
            elif chunk:
                pending += chunk
                while len(pending) >= 5:
                    kind, length = struct.unpack(">BI", pending[:5])
                    if len(pending) < 5 + length:
                        break
                    payload, pending = pending[5 : 5 + length], pending[5 + length :]
                    if kind == 0:
                        write_all(master, payload)
                    elif kind == 1 and length == 4:
                        r, c = struct.unpack(">HH", payload)
                        set_size(master, max(1, r), max(1, c))
        if shell_status is None:
            reap()
        if shell_status is not None:
            # The shell ended: pass on what it printed last, say so, and let go of the terminal (background
            # jobs still writing to it get EIO, as after closing a terminal window).
            os.set_blocking(master, False)
            try:
                while True:
                    data = os.read(master, CHUNK)
                    if not data:
                        break
                    send(0, data)
            except OSError:
                pass
            send(1, str(status_code(shell_status)).encode())
            os.close(master)
            master_open = False

    os.close(1)
    # Stay as the reaper of whatever the shell left running until it ends.
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue


if __name__ == "__main__":
    main()
