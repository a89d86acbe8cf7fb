"""Coverage-guided fuzzing of the `action` target (fuzz/targets.py) with atheris.

    python fuzz/fuzz_action.py -max_total_time=600            # seeds fuzz/work/action/ first
    python fuzz/fuzz_action.py -max_total_time=600 my_corpus/

See fuzz/README.md.
"""

from harness import run

if __name__ == "__main__":
    run("action")
