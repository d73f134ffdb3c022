"""``mdp completion SHELL``: a script that has bash, zsh or fish complete mdp's commands, and
the completer it calls back (a built-in plugin, see :mod:`mdp.program.registry`).

The scripts know nothing of mdp's commands: at each Tab they run ``mdp __complete WORD...``
with the words typed after ``mdp`` (the last one the word being completed), and the
completer answers from the program's own parser, plugins' commands and options included, so
completion never drifts from what the program takes. Values it knows by the argument's
destination: game names, a game's variants, parameters and strategies, the output formats;
an argument with choices offers them, and one of metavar ``FILE`` file names.

The answer, on standard output: a first line ``files`` (the shell also offers file names,
for the part of the word after the given prefix: ``files<TAB>--out=``) or ``words``, then
one candidate a line, each with its description after a tab.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

import mdp
from mdp.hookspecs import hookimpl
from mdp.program import registry
from mdp.program.arguments import PLUGIN_OPTIONS, plugins_given
from mdp.program.registry import Command, commands_and_analyses


@attrs.frozen
class Candidates:
    """What completes the word being typed: ``words`` (each ``(word, description)``), and,
    with ``files``, file names too, for the part of the word after ``prefix``."""

    words: tuple[tuple[str, str], ...] = ()
    files: bool = False
    prefix: str = ""

    def lines(self) -> list[str]:
        """The answer as the scripts read it."""
        head = f"files\t{self.prefix}" if self.files else "words"
        return [head, *(f"{word}\t{description}" if description else word
                        for word, description in self.words)]


Parser = Callable[[str | None], argparse.ArgumentParser]


def answer(words: Sequence[str], parser: Parser) -> int:
    """Print the candidates for the last of ``words`` (those typed after ``mdp``); ``parser``
    makes the program's parser (with a command's name, that command's alone)."""
    from mdp.program.arguments import shielded, stdout

    with shielded():  # what a game prints as it loads must not pass for a candidate
        found = complete(list(words) or [""], parser)
    print("\n".join(found.lines()), file=stdout())
    return 0


def complete(words: list[str], parser: Parser) -> Candidates:
    """The candidates for ``words[-1]``, the word being typed, after ``words[:-1]``."""
    *typed, current = words
    if typed[-1:] and typed[-1] in PLUGIN_OPTIONS:  # -p FILE, anywhere
        return Candidates(files=True)
    typed, specs = plugins_given(typed)
    try:  # the plugins the line gives, as the command would load them
        try:
            rules = registry.add_given(specs)
        except mdp.MdpError:  # one that does not load: candidates are a help, never an error
            rules = []
        return _completed(typed, current, parser, rules)
    finally:
        registry.drop_given()


def _completed(typed: list[str], current: str, parser: Parser, rules: list[str]) -> Candidates:
    known = commands_and_analyses()
    at = next((i for i, word in enumerate(typed) if word in known), None)
    if at is None:  # no command yet: a command, or an option of mdp itself
        if current.startswith("-"):
            return _options(parser(None), current)
        return Candidates(_matching(((name, c.help) for name, c in known.items()), current))
    top = parser(typed[at])
    assert top._subparsers is not None  # the program's parser, with its commands
    action = top._subparsers._group_actions[0]
    assert isinstance(action, argparse._SubParsersAction)
    sub = action.choices[typed[at]]
    return _Line(sub, typed[at + 1:], rules).complete(current)


def _matching(words: Iterable[tuple[str, str]], current: str) -> tuple[tuple[str, str], ...]:
    return tuple((word, description) for word, description in words if word.startswith(current))


def _help(action: argparse.Action) -> str:
    """An option's help in one line, as ``--help`` shows it (``%(default)s`` filled in)."""
    text = " ".join((action.help or "").split())
    try:
        return text % {**vars(action), "prog": "mdp"}
    except (KeyError, TypeError, ValueError):
        return text


def _options(parser: argparse.ArgumentParser, current: str) -> Candidates:
    """The options of ``parser`` that start with ``current``: the long ones, and the short
    ones too once typed (``-s``), so a list shows each option once."""
    found = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        strings = [s for s in action.option_strings if s.startswith(current)]
        longs = [s for s in strings if s.startswith("--")]
        found += [(s, _help(action)) for s in (longs or strings)]
    return Candidates(tuple(found))


@attrs.define
class _Line:
    """The words typed after a command, read as its parser would read them: which argument
    each value belongs to, and what the next word is."""

    parser: argparse.ArgumentParser
    words: list[str]
    plugins: list[str] = attrs.field(factory=list)  # the rule plugins the line gives (-p)
    given: dict[str, list[str]] = attrs.field(factory=dict)
    pending: argparse.Action | None = None  # the option whose value comes next
    positional: int = 0  # how many positional arguments are filled
    dashes: bool = False  # after ``--``, every word is positional

    def __attrs_post_init__(self) -> None:
        for word in self.words:
            self._read(word)

    def _read(self, word: str) -> None:
        if self.pending is not None:
            self.given.setdefault(self.pending.dest, []).append(word)
            self.pending = None
        elif word == "--" and not self.dashes:
            self.dashes = True
        elif word.startswith("-") and word != "-" and not self.dashes:
            name, equals, value = word.partition("=")
            action = self._option(name)
            if action is not None and equals:
                self.given.setdefault(action.dest, []).append(value)
            elif action is not None and action.nargs != 0:
                self.pending = action
        else:
            positionals = self._positionals()
            if self.positional < len(positionals):
                action = positionals[self.positional]
                self.given.setdefault(action.dest, []).append(word)
                if action.nargs not in ("+", "*", argparse.REMAINDER):
                    self.positional += 1

    def _option(self, name: str) -> argparse.Action | None:
        """The option ``name`` names, or a long option's unambiguous beginning, as argparse
        takes it."""
        options = self.parser._option_string_actions
        if name in options:
            return options[name]
        if name.startswith("--"):
            found = {action for string, action in options.items() if string.startswith(name)}
            return found.pop() if len(found) == 1 else None
        return None

    def _positionals(self) -> list[argparse.Action]:
        return [action for action in self.parser._actions if not action.option_strings]

    def complete(self, current: str) -> Candidates:
        if self.pending is not None:
            return self._values(self.pending, current)
        if current.startswith("-") and not self.dashes:
            name, equals, value = current.partition("=")
            action = self._option(name) if equals else None
            if action is not None and action.nargs != 0:
                return self._values(action, value, f"{name}=")
            return _options(self.parser, current)
        positionals = self._positionals()
        if self.positional < len(positionals):
            return self._values(positionals[self.positional], current)
        return Candidates()

    def _values(self, action: argparse.Action, current: str, prefix: str = "") -> Candidates:
        """The values of ``action`` that start with ``current``, each after ``prefix`` (an
        option's ``--NAME=`` typed in the same word)."""
        if action.choices is not None:
            words = [(str(choice), "") for choice in action.choices]
            files = False
        elif action.dest in _VALUES:
            words, files = _VALUES[action.dest](self)
        else:
            words, files = [], action.metavar == "FILE"
        return Candidates(tuple((prefix + word, description)
                                for word, description in _matching(words, current)), files, prefix)

    def game(self, **settings: Any) -> mdp.Game | None:
        """The game typed (with ``settings``), or ``None`` when there is none or it fails to
        load: candidates are a help, never an error."""
        name = self.given.get("game", [None])[0]
        if name is None:
            return None
        try:
            return mdp.load_game(name, plugins=self.plugins, **settings)
        except mdp.MdpError:
            return None


# Values by the argument's destination: (candidates, whether file names are candidates too).


def _games(line: _Line) -> tuple[list[tuple[str, str]], bool]:
    return [(name, "installed game") for name in mdp.available_games()], True


def _parameters(line: _Line) -> tuple[list[tuple[str, str]], bool]:
    """``NAME=`` for each parameter of the game, for ``--set`` and ``--vary``."""
    game = line.game()
    return [(f"{p.name}=", p.help) for p in (game.declared if game else ())], False


def _variants(line: _Line) -> tuple[list[tuple[str, str]], bool]:
    game = line.game()
    return [(v.name, v.rules) for v in (game.variants() if game else ())], False


def _strategies(line: _Line) -> tuple[list[tuple[str, str]], bool]:
    """The game's strategies, under the variant and parameters typed (a strategy may come with
    a rule)."""
    from mdp.game.params import parse_assignments

    try:
        settings = parse_assignments(line.given.get("params", []))
    except mdp.MdpError:
        settings = {}
    variant = line.given.get("variant")
    game = line.game(variant=variant[-1] if variant else None, **settings)
    if game is None:
        return [], False
    return [("optimal", "optimal play"),
            *((name, s.help) for name, s in mdp.strategies(game).items())], False


def _formats(line: _Line) -> tuple[list[tuple[str, str]], bool]:
    return [(name, f.help) for name, f in mdp.formats().items()], False


_VALUES = {"game": _games, "params": _parameters, "vary": _parameters, "variant": _variants,
           "strategy": _strategies, "against": _strategies, "format": _formats}


# The scripts. Each passes the words after ``mdp`` up to the cursor and reads the answer.

BASH = r"""# bash completion for mdp: eval "$(mdp completion bash)"
_mdp() {
    local i word head start cur prefix n=0
    local -a words
    # The words as mdp reads them: bash splits "--set NAME=3" at "=", so join the parts again.
    for ((i = 1; i <= COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if ((n)) && [[ $word == "=" || ( ${COMP_WORDS[i-1]} == "=" && -n $word ) ]]; then
            words[n-1]+=$word
        else
            words[n++]=$word
        fi
    done
    cur=${words[n-1]}
    # Bash replaces only the part of the word after its last "=".
    prefix=
    [[ $cur == *=* && $COMP_WORDBREAKS == *=* ]] && prefix=${cur%=*}=
    COMPREPLY=()
    while IFS= read -r word; do
        if [[ -z $head ]]; then
            head=$word
        else
            word=${word%%$'\t'*}
            COMPREPLY+=("${word#"$prefix"}")
        fi
    done < <("${COMP_WORDS[0]}" __complete "${words[@]}" 2>/dev/null)
    if [[ $head == files* ]]; then
        start=${head#files}
        start=${start#$'\t'}
        compopt -o filenames 2>/dev/null
        while IFS= read -r word; do
            COMPREPLY+=("$word")
        done < <(compgen -f -- "${cur#"$start"}")
    fi
    if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *= ]]; then
        compopt -o nospace 2>/dev/null
    fi
}
complete -F _mdp mdp
"""

ZSH = r"""#compdef mdp
# zsh completion for mdp: eval "$(mdp completion zsh)" after compinit, or this file as _mdp
# in a folder of $fpath.
_mdp() {
    local head line word entry
    local -a lines open closed
    lines=("${(@f)$(${words[1]} __complete "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
    head=${lines[1]}
    for line in "${(@)lines[2,-1]}"; do
        [[ -z $line ]] && continue
        word=${line%%$'\t'*}
        entry=${word//:/\\:}
        [[ $line == *$'\t'* ]] && entry+=:${line#*$'\t'}
        # A word ending in "=" (--set NAME=) takes its value right after it.
        if [[ $word == *= ]]; then open+=("$entry"); else closed+=("$entry"); fi
    done
    (( ${#open} )) && _describe -t values 'mdp' open -S ''
    (( ${#closed} )) && _describe -t values 'mdp' closed
    if [[ $head == files* ]]; then
        local start=${head#files}
        start=${start#$'\t'}
        [[ -n $start ]] && compset -P "${(b)start}"
        _files
    fi
    return 0
}
if [[ $funcstack[1] == _mdp ]]; then
    _mdp "$@"
else
    compdef _mdp mdp
fi
"""

FISH = r"""# fish completion for mdp: mdp completion fish | source
# (or save it as ~/.config/fish/completions/mdp.fish)
function __mdp_complete
    set -l typed (commandline -opc) (commandline -ct)
    set -l lines ($typed[1] __complete $typed[2..-1] 2>/dev/null)
    or return
    printf '%s\n' $lines[2..-1]
    if string match -q 'files*' -- $lines[1]
        set -l start (string replace -r '^files\t?' '' -- $lines[1])
        set -l cur (commandline -ct)
        set -l rest (string sub -s (math (string length -- "$start") + 1) -- $cur)
        for path in (__fish_complete_path $rest)
            printf '%s%s\n' $start $path
        end
    end
end
complete -c mdp -f -a '(__mdp_complete)'
"""

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SCRIPTS, help="the shell: " + ", ".join(SCRIPTS))


def _completion(args: argparse.Namespace) -> None:
    from mdp.program.stdout import shield, stdout

    shield()  # the script is run by the shell: what plugin code prints goes to standard error
    stdout().write(SCRIPTS[args.shell])


@hookimpl
def mdp_commands() -> list[Command]:
    return [Command("completion", "print a script that has the shell complete mdp's commands",
                    _completion, _arguments,
                    "Print the completion script of bash, zsh or fish: it completes commands, "
                    "options, game names, variants, --set parameters, formats and strategies. "
                    'Install it with eval "$(mdp completion bash)" in ~/.bashrc, eval "$(mdp '
                    'completion zsh)" in ~/.zshrc (after compinit), or mdp completion fish > '
                    "~/.config/fish/completions/mdp.fish.")]
