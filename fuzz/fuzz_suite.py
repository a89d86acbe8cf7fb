"""Coverage-guided fuzzing of the `suite` target (fuzz/targets.py) with atheris.

    python fuzz/fuzz_suite.py -max_total_time=600            # seeds fuzz/work/suite/ first
    python fuzz/fuzz_suite.py -max_total_time=600 my_corpus/

See fuzz/README.md.
"""

from harness import run

if __name__ == "__main__":
    run("suite")
