# Homebrew formula for iotally, built from the source tarball `meson dist`
# writes (docs/install.md). It has not run on a Mac here: the project's CI
# checks its syntax and that it names the tarball and every library of
# meson.build (tests/package-check.py). The release's sha256 goes beside its
# url when the tarball is published; until then docs/install.md says how to
# install from a tarball of your own.
class Iotally < Formula
  desc "Offline analyzer for macOS memory diagnostics (vmmap, footprint, ioreg, ioclasscount)"
  homepage "https://iotally.invalid/"
  url "https://iotally.invalid/releases/iotally-0.1.0.tar.gz"
  license "BSD-3-Clause"

  depends_on "meson" => :build
  depends_on "ninja" => :build
  depends_on "pkgconf" => :build
  depends_on "jansson"
  depends_on "libarchive"
  depends_on "libxml2"
  depends_on "nettle"
  depends_on "pcre2"

  uses_from_macos "zlib"

  def install
    # The tests need programs a formula does not install (a browser, fish,
    # cmark-gfm): the project's macOS workflow runs them.
    system "meson", "setup", "build", "-Dtests=false", *std_meson_args
    system "meson", "compile", "-C", "build", "--verbose"
    system "meson", "install", "-C", "build"
  end

  test do
    assert_equal "iotally #{version}", shell_output("#{bin}/iotally --version").strip
    # Two IOSurface regions of a vmmap -noCoalesce dump, of 16 KiB and 4 KiB
    # (the same text gives the same lines on Linux).
    (testpath/"vmmap.txt").write <<~EOS
      Process:         Example [42]
      ==== Non-writable regions for process 42
      ==== Writable regions for process 42
      REGION TYPE                    START - END         [ VSIZE  RSDNT  DIRTY   SWAP] PRT/MAX SHRMOD PURGE    REGION DETAIL
      IOSurface                   100000000-100004000    [   16K    16K    16K     0K] rw-/rw- SM=SHM
      IOSurface                   100004000-100005000    [    4K     4K     4K     0K] rw-/rw- SM=SHM
    EOS
    output = shell_output("#{bin}/iotally vmmap #{testpath}/vmmap.txt")
    assert_match "Total entries: 2 |", output
    assert_match(/^ +16\.0 KB \| +1 entries/, output)
  end
end
