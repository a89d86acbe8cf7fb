"""A test program for the agent protocol: ``bot.py BEHAVIOUR [N]``.

Reads one JSON message a line. To each ``act`` it answers as BEHAVIOUR says,
from its N-th act on (before that it plays the first legal move):

- ``legal``: the first legal move (all game long);
- ``json``: the first legal move as ``{"action": ...}``;
- ``garbage``: ``hello there``;
- ``nojson``: ``{"move": 1}`` (JSON without an action);
- ``illegal``: a well-formed move that is not legal now;
- ``silent``: nothing (it waits for the next message);
- ``flood``: two megabytes on one line;
- ``exit``: exits with code 3 without answering;
- ``flood_nonl``: two megabytes with no newline, then waits;
- ``stderr``: ten megabytes to its standard error at its N-th act; the first legal move all game long;
- ``closeout``: closes its standard output and stays alive, deaf to ``quit``;
- ``late``: sleeps BOT_SLEEP seconds (default 2), then answers the first legal move;
- ``early``: answers the first legal move twice, both lines in one write (so the second
  reaches rummydsl with the first, before rummydsl sends the next request, whatever the load);
- ``fork``: leaves a grandchild holding its standard output (sleeping a minute), and exits
  with code 3;
- ``setsid``: at its N-th act, leaves a grandchild in a session of its own (a daemon's double
  fork: ``fork``, ``setsid``, ``fork``, the middle process exits), holding no pipe and
  sleeping a minute; then plays the first legal move all game long;
- ``setsid_exit``: the same grandchild, then exits with code 3;
- ``badutf8``: a line of bytes that are not UTF-8;
- ``banner``: writes ``mybot 1.0`` as it starts, before reading anything, then plays the
  first legal move.

It writes every message it got to the file named by BOT_TRANSCRIPT, and its process
id (and a grandchild's) one a line to the file named by BOT_PIDFILE, if set.
"""

import json
import os
import sys
import time


def note_pid(pid: int) -> None:
    """Append ``pid`` to the file named by BOT_PIDFILE, if set."""
    name = os.environ.get("BOT_PIDFILE")
    if name:
        with open(name, "a", encoding="utf-8") as handle:
            handle.write(f"{pid}\n")


def linger() -> None:
    """Leave a grandchild that left this session and process group, noted in BOT_PIDFILE
    before this returns (the middle process writes it, and is waited for)."""
    child = os.fork()
    if child:
        os.waitpid(child, 0)
        return
    os.setsid()
    grandchild = os.fork()
    if grandchild:
        note_pid(grandchild)
        os._exit(0)
    for descriptor in (0, 1):
        os.close(descriptor)
    time.sleep(60)
    os._exit(0)


def main() -> int:
    behaviour = sys.argv[1]
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    transcript = os.environ.get("BOT_TRANSCRIPT")
    note_pid(os.getpid())
    acts = 0
    if behaviour == "banner":
        print("mybot 1.0", flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        if transcript:
            with open(transcript, "a", encoding="utf-8") as handle:
                handle.write(message["type"] + "\n")
        if message["type"] == "quit":
            return 0
        if message["type"] != "act":
            continue
        acts += 1
        legal = message["legal"]
        answer = legal[0]
        if acts >= start:
            if behaviour == "json":
                answer = json.dumps({"action": legal[0]})
            elif behaviour == "garbage":
                answer = "hello there"
            elif behaviour == "nojson":
                answer = '{"move": 1}'
            elif behaviour == "illegal":
                me = message["observation"]["you"]
                answer = next(f"{me} {verb}" for verb in ("draw stock", "pass", "done", "take")
                              if f"{me} {verb}" not in legal)
            elif behaviour == "silent":
                continue
            elif behaviour == "flood":
                sys.stdout.write("x" * 2_000_000 + "\n")
                sys.stdout.flush()
                continue
            elif behaviour == "exit":
                return 3
            elif behaviour == "flood_nonl":
                sys.stdout.write("x" * 2_000_000)
                sys.stdout.flush()
                time.sleep(60)
            elif behaviour == "stderr" and acts == start:
                for _ in range(10):
                    sys.stderr.write("e" * 1_000_000)
                sys.stderr.flush()
            elif behaviour == "closeout":
                os.close(1)
                time.sleep(60)
                return 0
            elif behaviour == "late":
                time.sleep(float(os.environ.get("BOT_SLEEP", "2")))
            elif behaviour == "early":
                # One write of both lines (a pipe takes a write of up to PIPE_BUF bytes whole):
                # the second line is in the pipe when rummydsl reads the first, so it is
                # there when rummydsl judges what came early, before its next request. Two
                # writes (PYTHONUNBUFFERED=1 makes sys.stdout do that) would race that request.
                sys.stdout.flush()
                os.write(1, (answer + "\n" + answer + "\n").encode())
                continue
            elif behaviour in ("setsid", "setsid_exit") and acts == start:
                linger()
                if behaviour == "setsid_exit":
                    os._exit(3)
            elif behaviour == "fork":
                child = os.fork()
                if child == 0:
                    time.sleep(60)
                    os._exit(0)
                note_pid(child)
                os._exit(3)
            elif behaviour == "badutf8":
                sys.stdout.buffer.write(b"\xff\xfe P2 draw stock\n")
                sys.stdout.flush()
                continue
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
