"""The C library's and the shell's failure messages as a non-English locale prints them, with the English text the
rules read (a log from a machine set to Chinese, German, Spanish, French, Russian or Japanese says "段错误 (核心已转储)"
where another says "Segmentation fault (core dumped)"; the verdict must not depend on the machine's language).

Each row: the locale, the translated text, the English original (the msgid), and its source: glibc's message
catalogues (po/<locale>.po: strsignal's signal descriptions, strerror's errno texts) and bash's (po/<locale>.po:
the "(core dumped)" a shell adds after a job killed by a signal that dumps core). The paste layer reads a line
holding a translation as if it held the English text; the raw line stays the evidence."""

from __future__ import annotations

from typing import NamedTuple

_GLIBC = "https://sourceware.org/git/?p=glibc.git;a=tree;f=po (po/{}.po)"
_BASH = "https://git.savannah.gnu.org/cgit/bash.git/tree/po (po/{}.po)"


class Translation(NamedTuple):
    locale: str
    text: str  # as the locale prints it
    english: str  # the message id: what an English locale prints
    source: str


def _rows(locale: str, pairs: list[tuple[str, str]], shell: tuple[str, str] | None) -> list[Translation]:
    out = [Translation(locale, text, english, _GLIBC.format(locale)) for text, english in pairs]
    if shell is not None:
        out.append(Translation(locale, shell[0], shell[1], _BASH.format(locale)))
    return out


TRANSLATIONS: tuple[Translation, ...] = tuple(
    _rows(
        "zh_CN",
        [
            ("段错误", "Segmentation fault"),
            ("已放弃", "Aborted"),
            ("已杀死", "Killed"),
            ("总线错误", "Bus error"),
            ("非法指令", "Illegal instruction"),
            ("没有那个文件或目录", "No such file or directory"),
            ("权限不够", "Permission denied"),
            ("设备上没有空间", "No space left on device"),
            ("无法分配内存", "Cannot allocate memory"),
            ("拒绝连接", "Connection refused"),
        ],
        ("(核心已转储)", "(core dumped)"),
    )
    + _rows(
        "de",
        [
            ("Speicherzugriffsfehler", "Segmentation fault"),
            ("Abgebrochen", "Aborted"),
            ("Getötet", "Killed"),
            ("Datei oder Verzeichnis nicht gefunden", "No such file or directory"),
            ("Keine Berechtigung", "Permission denied"),
            ("Auf dem Gerät ist kein Speicherplatz mehr verfügbar", "No space left on device"),
        ],
        ("(Speicherabzug geschrieben)", "(core dumped)"),
    )
    + _rows(
        "es",
        [
            ("Violación de segmento", "Segmentation fault"),
            ("No existe el archivo o el directorio", "No such file or directory"),
            ("Permiso denegado", "Permission denied"),
        ],
        ("(`core' generado)", "(core dumped)"),
    )
    + _rows(
        "fr",
        [
            ("Erreur de segmentation", "Segmentation fault"),
            ("Aucun fichier ou dossier de ce type", "No such file or directory"),
            ("Permission non accordée", "Permission denied"),
        ],
        ("(image mémoire écrite)", "(core dumped)"),
    )
    + _rows(
        "ru",
        [
            ("Ошибка сегментирования", "Segmentation fault"),
            ("Убито", "Killed"),
            ("Нет такого файла или каталога", "No such file or directory"),
            ("Отказано в доступе", "Permission denied"),
        ],
        ("(стек памяти сброшен на диск)", "(core dumped)"),
    )
    + _rows(
        "ja",
        [
            ("セグメンテーション違反です", "Segmentation fault"),
            ("そのようなファイルやディレクトリはありません", "No such file or directory"),
            ("許可がありません", "Permission denied"),
        ],
        ("(コアダンプ)", "(core dumped)"),
    )
)
