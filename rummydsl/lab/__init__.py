"""The lab: what a house rule does (``rummydsl compare`` and ``rummydsl sweep``, issue 12).

One concern a module:

* :mod:`~rummydsl.lab.stats`: streaming accumulators and the tests of difference;
* :mod:`~rummydsl.lab.figures`: the figures of a variant, game by game, and their comparison;
* :mod:`~rummydsl.lab.derive`: variants derived from ``--set KEY=V1,V2``;
* :mod:`~rummydsl.lab.run`: the same seeds played under each variant (through
  :func:`rummydsl.simulate.run_tasks`), ``--until``;
* :mod:`~rummydsl.lab.output`, :mod:`~rummydsl.lab.report` and :mod:`rummydsl.progress`:
  the text table and JSON, the HTML report, the progress line;
* :mod:`~rummydsl.lab.runfile`: the out-file of ``--out``, read back by ``--resume``;
* :mod:`~rummydsl.lab.command`: the three subcommands' flags, and running them;
* :mod:`~rummydsl.lab.defaults`: their default numbers (no games imported to build the flags).

>>> from rummydsl.lab.run import Arm, Plan, run_lab
>>> result = run_lab(Plan([Arm.load("gin_rummy"), Arm.load("straight_gin")], seed=1, games=2))
>>> [row.figure.key for row in result.rows][:3], result.paired
(['win.P1', 'win.P2', 'win.dealer'], [True])
"""
