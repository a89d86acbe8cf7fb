"""Coverage-guided fuzzing of the `load` target (fuzz/targets.py) with atheris.

    python fuzz/fuzz_load.py -max_total_time=600            # seeds fuzz/work/load/ first
    python fuzz/fuzz_load.py -max_total_time=600 my_corpus/

See fuzz/README.md.
"""

from harness import run

if __name__ == "__main__":
    run("load")
