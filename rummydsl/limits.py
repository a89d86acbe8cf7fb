"""Every limit rummydsl enforces on what it reads and runs, in one place.

Variant files, conformance suites, game records and agent programs come from
strangers: nothing such an input does may crash the tool, run code or exhaust
memory or time. Each limit below bounds one thing, and each is the only copy of
its number: the code that enforces it imports it from here, and the JSON schemas
in ``spec/`` carry the same numbers (``tests/unit/test_limits.py`` reads the
schemas and compares). Hitting a limit is a :class:`~rummydsl.errors.RummyDslError`
that names the place, raised before the work (or the memory) the limit guards
against is spent.

``docs/limits.md`` is the table of them all: the value, where it applies, the
message a user sees, and the test that checks it.

>>> MAX_FILE_BYTES
262144
>>> MAX_EXPR_INT == 2**63 - 1
True
"""

from __future__ import annotations

__all__ = [
    # files
    "MAX_FILE_BYTES",
    "MAX_YAML_DEPTH",
    "MAX_YAML_ALIASES",
    "MAX_YAML_NODES",
    "MAX_EXTENDS_DEPTH",
    "MAX_EXTENDS_UP",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_LINE_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_JSON_NUMBER",
    # variant texts
    "MAX_ID_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_DESCRIPTION_LENGTH",
    "MAX_IDENTIFIER_LENGTH",
    # expressions
    "MAX_EXPR_LENGTH",
    "MAX_EXPR_DEPTH",
    "MAX_INT_LITERAL",
    "MAX_EXPR_INT",
    # the deck
    "MAX_SUITS",
    "MAX_RANKS",
    "MAX_SYMBOL",
    "MAX_SYMBOL_NUMBER",
    "MAX_PACKS",
    "MAX_WILDS",
    "MAX_DECK_CARDS",
    # players, the deal, the variant's parts
    "MAX_PLAYERS",
    "MAX_HAND",
    "MAX_HAND_SIZE",
    "MAX_MELD_WORK",
    "MAX_MELD_KINDS",
    "MAX_TURN_STEPS",
    "MAX_OPTIONS",
    "MAX_LETS",
    "MAX_SCORE_CASES",
    "MAX_HOLLYWOOD_GAMES",
    "MAX_MATCH_GAMES",
    # play
    "MAX_ACTIONS",
    "MAX_ROUNDS",
    "MAX_AGENT_LINE",
    # conformance suites
    "MAX_SUITE_CASES",
    "MAX_CASE_ID_LENGTH",
    "MAX_CASE_ACTIONS",
    "MAX_ACTION_LENGTH",
    "MAX_CASE_CARDS",
    "MAX_CARDS_TEXT",
    "MAX_TAG_LENGTH",
    "MAX_VARIANT_REF_LENGTH",
    "MAX_SUITE_FILE_BYTES",
    "MAX_SUITE_YAML_ALIASES",
    "MAX_SUITE_YAML_NODES",
    # the web playground
    "MAX_REQUEST_BYTES",
    "MAX_WEB_GAMES",
    "MAX_WEB_GAME_SECONDS",
    "MAX_TRIAL_GAMES",
    "MAX_TRIALS",
    "MAX_SESSIONS",
    "MAX_SESSION_TEXTS",
    "MAX_SESSION_BYTES",
    "MAX_SESSION_SECONDS",
]

# -- files -------------------------------------------------------------------------

MAX_FILE_BYTES = 256 * 1024
"""The largest variant or suite file, in bytes of UTF-8 (256 KiB): the shipped ones
are under 32 KiB, and the file is never read past this, whatever its size."""

MAX_YAML_DEPTH = 32
"""The deepest nesting of YAML mappings and lists (the top-level mapping is level 1):
a variant needs 6; refused before the parser recurses, so no file exhausts the stack."""

MAX_YAML_ALIASES = 100
"""The most alias uses (``*name``) in one YAML file: plenty to share a few blocks."""

MAX_YAML_NODES = 100_000
"""The most values (keys, scalars, collections) a YAML file may expand to, aliases
expanded: a "billion laughs" file is refused after this much work, not a billion."""

MAX_EXTENDS_DEPTH = 16
"""The most ancestors a variant may have (the length of its ``extends`` chain)."""

MAX_EXTENDS_UP = 2
"""How many folders above the folder of the file you named an ``extends:`` parent
(or a suite's ``variant:``) may lie: ``../base.yaml`` from a subfolder of house rules
is fine, ``../../../../etc/x.yaml`` is refused (docs/security.md)."""

MAX_RECORD_BYTES = 1 << 30
"""The largest game record ``replay`` reads, in bytes (1 GiB): a simulated game of
gin_rummy takes about 21 KB, so this holds some 50,000; replay time grows with the
size, so it is capped."""

MAX_RECORD_LINE_BYTES = 1 << 20
"""The longest line of a game record, in bytes (1 MiB): a deal of the largest deck
(:data:`MAX_DECK_CARDS` cards) is about 16 KiB; a longer line is refused before it
is read whole. Run files (``simulate --out``, ``compare``/``sweep --out``, read back by
``--resume``) have the same two limits."""

MAX_JSON_DEPTH = 64
"""The deepest nesting of lists and objects in JSON from outside (a line of a record or
a run file, a save, an agent's answer): rummydsl writes at most 6 levels; checked before
the parser recurses, so no file or program exhausts the Python stack."""

MAX_JSON_NUMBER = 100
"""The longest number in JSON from outside, in characters: the integers rummydsl writes
fit 64 bits (19 digits); refused before Python converts it (Python itself refuses an
integer of more than 4,300 digits with a ``ValueError``)."""

# -- variant texts (the schema's maxLength) ------------------------------------------

MAX_ID_LENGTH = 64
"""The longest variant ``id``, in characters."""

MAX_NAME_LENGTH = 120
"""The longest variant ``name``, in characters."""

MAX_DESCRIPTION_LENGTH = 4000
"""The longest ``description`` of a variant, a suite or a case, in characters."""

MAX_IDENTIFIER_LENGTH = 40
"""The longest meld kind, option or ``let`` name, in characters."""

# -- expressions ---------------------------------------------------------------------

MAX_EXPR_LENGTH = 2000
"""The longest expression text, in characters (the shipped ones are under 100)."""

MAX_EXPR_DEPTH = 32
"""The deepest nesting of an expression, in levels (a bracket or an operation is one);
checked before parsing and after, so no expression exhausts the Python stack."""

MAX_INT_LITERAL = 10**9
"""The largest integer written in an expression."""

MAX_EXPR_INT = 2**63 - 1
"""The largest magnitude of an integer an expression computes (a signed 64-bit
integer, so any engine can hold it). A ``+``, ``-``, ``*`` or ``sum`` whose result
would be larger is an error, found from the operands' sizes before the product is
computed: ``let`` formulas that square each other cannot build a huge number."""

# -- the deck ------------------------------------------------------------------------

MAX_SUITS = 26
"""The most suits of a deck: one-letter symbols that differ ignoring case."""

MAX_RANKS = 64
"""The most ranks of a deck (a rank's order fits in a 64-bit mask)."""

MAX_SYMBOL = 8
"""The most characters in a rank symbol or alias."""

MAX_SYMBOL_NUMBER = 10**MAX_SYMBOL - 1
"""The largest rank symbol written as a YAML integer (its digits are the symbol)."""

MAX_PACKS = 8
"""The most copies of every natural card."""

MAX_WILDS = 64
"""The most wild cards in a deck."""

MAX_DECK_CARDS = 2048
"""The most cards in a deck (suits x ranks x packs + wilds): the engine keeps a
hand as a bitmask of card ids, and per-deck tables by card id."""

# -- players, the deal, the variant's parts ------------------------------------------

MAX_PLAYERS = 8
"""The most seats at a table."""

MAX_HAND = 128
"""The most cards a hand may hold for the meld solver: more than any deck's hand can
hold in a shipped variant (52 cards, or 108 for Contract Rummy's two packs and
jokers). What a question costs is bounded by :data:`MAX_MELD_WORK`, not by the
hand's size: the cost search lists only melds that do not split into smaller ones
(``docs/performance.md``), so a whole Skarney deck is solved exactly."""

MAX_HAND_SIZE = 19
"""The most cards dealt to each player (``deal.hand_size``); hands grow past it in
play (declined offers, buys, deep draws) up to :data:`MAX_HAND`."""

MAX_MELD_WORK = 400_000
"""The most units of work one meld-solver question may take: each candidate group
listed (and judged by the meld patterns) and each state of the memoised search is
one. A pattern with no shape the solver can use (say ``size in 3..19 and size % 2 ==
1 and not same(rank)``: every subset of the hand) runs into it on big hands and
stops with an error naming the kind's pattern (``path:line:col``); ``check`` warns
about such kinds (rule ``meld-explodes``). The biggest shipped-variant hands measured
took about 210,000 (the arrangement of a whole Skarney deck)."""

MAX_MELD_KINDS = 16
"""The most meld kinds in ``melds``."""

MAX_TURN_STEPS = 8
"""The most steps in ``turn``."""

MAX_OPTIONS = 64
"""The most ``options``."""

MAX_LETS = 32
"""The most ``scoring.let`` formulas."""

MAX_SCORE_CASES = 32
"""The most cases in ``scoring.round``."""

MAX_HOLLYWOOD_GAMES = 5
"""The most games on one Hollywood score sheet (GR-13)."""

MAX_MATCH_GAMES = 25
"""The most games a player must win to win a match (GR-11)."""

# -- play ----------------------------------------------------------------------------

MAX_ACTIONS = 100_000
"""The most actions in one round: a round of the shipped games takes a few dozen; a
round past this is a variant nobody can finish (:class:`~rummydsl.errors.StalledRoundError`)."""

MAX_ROUNDS = 1000
"""The most rounds in one game (of a match, the rounds of each game): a game of
gin_rummy to 100 points takes about 10; a game past this never reaches its target
(:class:`~rummydsl.errors.StalledGameError`)."""

MAX_AGENT_LINE = 65_536
"""The longest answer line read from an agent program, in bytes."""

# -- conformance suites (the conformance schema's maxima) ----------------------------

MAX_SUITE_CASES = 5000
"""The most cases in one suite file (the largest shipped suite has 66)."""

MAX_CASE_ID_LENGTH = 120
"""The longest case ``id``, in characters."""

MAX_CASE_ACTIONS = 2000
"""The most actions in one case's list (``actions``)."""

MAX_ACTION_LENGTH = 2000
"""The longest action text, in characters."""

MAX_CASE_CARDS = 200
"""The most cards in one list of cards of a case."""

MAX_CARDS_TEXT = 2000
"""The longest string of cards of a case, in characters."""

MAX_TAG_LENGTH = 60
"""The longest tag of a case, in characters."""

MAX_VARIANT_REF_LENGTH = 500
"""The longest variant name or path a suite or case names."""

MAX_SUITE_FILE_BYTES = 8 * 1024 * 1024
"""The largest suite file, in bytes of UTF-8 (8 MiB): generated suites are large (one
converted from 400 recorded OpenSpiel hands is 1.9 MB); a variant file keeps
:data:`MAX_FILE_BYTES`. The file is never read past this, whatever its size."""

MAX_SUITE_YAML_ALIASES = 10_000
"""The most alias uses (``*name``) in one suite file: a generated suite shares each
setup by an anchor (the 400-hand suite uses 400); still bounded by
:data:`MAX_SUITE_YAML_NODES`."""

MAX_SUITE_YAML_NODES = 600_000
"""The most values a suite file may expand to, aliases expanded: suites hold about one
value per 13 bytes (the 1.9 MB suite of 400 hands some 150,000), so this is about an
8 MiB suite's worth; a "billion laughs" suite is refused after this much work (about
250 MB and a few seconds), not a billion."""

# -- the web playground (rummydsl serve: docs/playground.md) ------------------------

MAX_REQUEST_BYTES = 2 * MAX_FILE_BYTES + 64 * 1024
"""The largest request body the playground reads, in bytes: a variant text at
:data:`MAX_FILE_BYTES`, escaped as JSON, with room to spare; refused (413) before the
rest is read, with or without a ``Content-Length``."""

MAX_WEB_GAMES = 200
"""The most games the playground keeps in memory at once; a new one past this forgets
the least recently used."""

MAX_WEB_GAME_SECONDS = 2 * 60 * 60
"""Seconds after its last request that the playground forgets a game."""

MAX_TRIAL_GAMES = 200
"""The most games of each variant one comparison of the playground plays (its "try it")."""

MAX_TRIALS = 20
"""The most comparisons the playground keeps; past it the oldest finished is forgotten,
and with none finished a new one is refused (503)."""

MAX_SESSIONS = 100
"""The most browser sessions the playground keeps (each with the texts it posted, which
its later texts may ``extends:``); a new one past this forgets the least recently used."""

MAX_SESSION_TEXTS = 16
"""The most posted texts one session keeps for ``extends:`` (by id); past it the one
posted longest ago is forgotten."""

MAX_SESSION_BYTES = 4 * MAX_FILE_BYTES
"""The most bytes of text one session keeps (1 MiB); past it the texts posted longest ago
are forgotten. With :data:`MAX_SESSIONS`, at most 100 MiB of texts in all."""

MAX_SESSION_SECONDS = MAX_WEB_GAME_SECONDS
"""Seconds after its last request that the playground forgets a session and its texts."""
