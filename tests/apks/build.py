"""Builds the test APKs from their sources with Debian's Android build tools.

``python tests/apks/build.py [OUT_DIR]`` (default: where the checkout keeps them) writes, for each source folder
here (an app's AndroidManifest.xml, res/ and assets/, as Gradle hands them to aapt2), the variants
``SOURCES`` names:

- ``NAME.apk``: unsigned, zip-aligned; byte-reproducible (aapt2 and zipalign write fixed
  timestamps), so tests/unit/apk/test_test_apks.py rebuilds it and compares bytes;
- ``NAME-signed.apk`` and ``NAME-other-key.apk``: the same APK signed (v1, v2 and v3) with the
  test key and with a second key (keys/), for the update refusal;
- ``NAME-config.fr.apk``: the French configuration split (what a bundle's APK set holds), which
  install refuses;
- ``sim/apk/warmup.apk``: shop signed with the test key, shipped with droidsim (package data, so
  a wheel has it): the verifier's spare decoder decodes it before it waits for an APK
  (sim/pm/spare_decoder.py), a signed one so that every reader a real APK needs is warm.

Needs ``aapt2``, ``zipalign`` and ``apksigner`` (Debian: aapt, zipalign, apksigner) and the
``framework-res.apk`` of the android-framework-res package to link against (Debian has no android.jar).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FRAMEWORK_RES = Path("/usr/share/android-framework-res/framework-res.apk")
TOOLS = ("aapt2", "zipalign", "apksigner")
# Each source and the variants built of it beside NAME.apk: shop is the APK most tests use, bank
# the default Jetpack layout (the library's PlatformAppFunctionService serving @AppFunction classes)
# with what AndroidX and Gradle merge into a real manifest, agent an agent app (no functions, no assets),
# travel both layouts at once (two @AppFunction classes on the library's service, an entry point
# enabled from values-v37) with the types of an update function (SetField<T>? of strings, dates,
# lists), nested serializables, enums and every java.time and Uri proxy as the androidx compiler
# writes them.
SOURCES = {"shop": ("signed", "other-key", "config.fr"), "bank": ("signed",), "agent": ("signed", "other-key"),
           "travel": ("signed",)}
KEYS = {"signed": "test", "other-key": "other"}
WARMUP = HERE.parent.parent / "sim" / "apk" / "warmup.apk"
MIN_SDK, TARGET_SDK = "34", "36"


def missing_tools() -> list[str]:
    """What this machine lacks to build the APKs (empty: it can)."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if not FRAMEWORK_RES.is_file():
        missing.append(str(FRAMEWORK_RES))
    return missing


def build_unsigned(source: Path, out: Path, *link_options: object, min_sdk: str = MIN_SDK,
                   target_sdk: str = TARGET_SDK) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        compiled, unaligned = Path(scratch) / "res.zip", Path(scratch) / "unaligned.apk"
        _run("aapt2", "compile", "--dir", source / "res", "-o", compiled)
        # --warn-manifest-validation: this aapt2 drops the <property> elements it does not know otherwise.
        assets = ["-A", source / "assets"] if (source / "assets").is_dir() else []
        _run("aapt2", "link", "-o", unaligned, "-I", FRAMEWORK_RES, "--manifest", source / "AndroidManifest.xml",
             *assets, "--min-sdk-version", min_sdk, "--target-sdk-version", target_sdk,
             "--warn-manifest-validation", *link_options, compiled)
        _run("zipalign", "-f", "-p", "4", unaligned, out)


def build_split(source: Path, out: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        unaligned = Path(scratch) / "split.apk"
        build_unsigned(source, Path(scratch) / "base.apk", "--split", f"{unaligned}:fr")
        _run("zipalign", "-f", "-p", "4", unaligned, out)


def sign(unsigned: Path, key: str, out: Path, schemes: tuple[str, ...] = ("v1", "v2", "v3")) -> None:
    enabled = [option for scheme in ("v1", "v2", "v3")
               for option in (f"--{scheme}-signing-enabled", str(scheme in schemes).lower())]
    _run("apksigner", "sign", "--key", HERE / "keys" / f"{key}.pk8", "--cert", HERE / "keys" / f"{key}.x509.pem",
         *enabled, "--out", out, unsigned)
    Path(f"{out}.idsig").unlink(missing_ok=True)


def build_all(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    built = []
    for name, variants in SOURCES.items():
        unsigned = out_dir / f"{name}.apk"
        build_unsigned(HERE / name, unsigned)
        built.append(unsigned)
        for suffix in variants:
            if suffix in KEYS:
                sign(unsigned, KEYS[suffix], out_dir / f"{name}-{suffix}.apk")
            else:
                build_split(HERE / name, out_dir / f"{name}-{suffix}.apk")
            built.append(out_dir / f"{name}-{suffix}.apk")
    shutil.copyfile(out_dir / "shop-signed.apk", out_dir / WARMUP.name)
    built.append(out_dir / WARMUP.name)
    return built


def checked_in(built: Path) -> Path:
    """Where the checkout keeps the file ``built`` is a fresh build of."""
    return WARMUP if built.name == WARMUP.name else HERE / built.name


def _run(*argv: object) -> None:
    result = subprocess.run([str(a) for a in argv], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{argv[0]} failed ({result.returncode}):\n{result.stdout}{result.stderr}")


if __name__ == "__main__":
    if missing := missing_tools():
        raise SystemExit(f"cannot build the test APKs: missing {', '.join(missing)}")
    if len(sys.argv) > 1:
        for path in build_all(Path(sys.argv[1])):
            print(path)
    else:
        with tempfile.TemporaryDirectory() as fresh:
            for path in build_all(Path(fresh)):
                shutil.copyfile(path, checked_in(path))
                print(checked_in(path))
