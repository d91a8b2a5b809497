//! Which instruction paths the hot loops take on this machine, decided once a process.
//!
//! Two loops have a fast path that needs more than the baseline instruction set:
//!
//! - the simulation stream's select of the k-th undealt card
//!   (`shuffle::Shuffler`), with BMI2's `pdep` (one
//!   instruction a card) where `pdep` is fast, else a byte-vector decode that needs nothing but
//!   the baseline (SSE2 on x86-64, NEON on AArch64) and is wider with AVX2;
//! - the numbered stream's unrank (Pavlicek's scheme, 8 deals at a time), with AVX2 `f64`
//!   vectors.
//!
//! `pdep` is one cycle on Intel since Haswell and on AMD since Zen 3 (family 25), but
//! microcoded on AMD's families 21 to 24 (Excavator, Zen, Zen 2, Hygon's Dhyana), where it
//! takes tens to hundreds of cycles depending on the mask: there, and on any other vendor,
//! the `pdep` path is not taken. The decision is by vendor and family (CPUID), not by a
//! measurement, so the same machine always takes the same path.
//!
//! The environment variable `DEALDEX_PORTABLE=1` forces the portable paths (what an ARM
//! machine runs), so benchmarks and tests can measure them on any CPU. Every path gives the
//! same deals (the value-stability tests hold on each).

use std::sync::OnceLock;

use serde::Serialize;

/// The environment variable that forces the portable paths when set to `1`.
pub const PORTABLE_ENV: &str = "DEALDEX_PORTABLE";

/// How the simulation stream finds the k-th undealt card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SelectPath {
    /// BMI2's `pdep`, one instruction a card, with AVX2 for the lanes' arithmetic.
    Pdep,
    /// The byte-vector decode of the picks, 32 deals a vector (AVX2).
    Avx2,
    /// The byte-vector decode of the picks, 16 deals a vector, in the baseline instruction
    /// set (SSE2 on x86-64, NEON on AArch64, scalar elsewhere).
    Portable,
}

impl SelectPath {
    /// The path's name as `--version` and the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            SelectPath::Pdep => "pdep",
            SelectPath::Avx2 => "avx2",
            SelectPath::Portable => "portable",
        }
    }
}

/// This machine's processor and the paths dealdex takes on it.
#[derive(Clone, Debug, Serialize)]
pub struct Cpu {
    /// The architecture dealdex was built for (`x86_64`, `aarch64`, …).
    pub arch: &'static str,
    /// CPUID's vendor string (`GenuineIntel`, `AuthenticAMD`, …); empty off x86.
    pub vendor: String,
    /// CPUID's brand string, e.g. `AMD EPYC 7B12 64-Core Processor`; empty off x86.
    pub model_name: String,
    /// CPUID's display family (base family plus extended family), 0 off x86.
    pub family: u32,
    /// CPUID's display model (extended model in the high nibble), 0 off x86.
    pub model: u32,
    /// The CPU has AVX2.
    pub avx2: bool,
    /// The CPU has BMI2.
    pub bmi2: bool,
    /// `pdep` is fast here (one instruction, a few cycles): Intel, or AMD from family 25.
    pub fast_pdep: bool,
    /// `DEALDEX_PORTABLE=1` was set: only the portable paths are taken.
    pub portable_forced: bool,
    /// The simulation stream's select path.
    pub select: SelectPath,
    /// The numbered stream's unrank takes its AVX2 path.
    pub unrank_avx2: bool,
}

impl Cpu {
    /// One line for reports and benchmark rows: model name, vendor, family/model and the
    /// paths, e.g. `Intel(R) Xeon(R) Processor (GenuineIntel family 6 model 167); shuffle
    /// select: pdep; unrank: avx2`.
    pub fn summary(&self) -> String {
        let name = if self.model_name.is_empty() {
            self.arch.to_string()
        } else {
            format!(
                "{} ({} family {} model {})",
                self.model_name, self.vendor, self.family, self.model
            )
        };
        let forced = if self.portable_forced {
            ", forced by DEALDEX_PORTABLE=1"
        } else {
            ""
        };
        format!(
            "{name}; shuffle select: {}; unrank: {}{forced}",
            self.select.name(),
            if self.unrank_avx2 { "avx2" } else { "portable" },
        )
    }
}

/// This machine's processor and paths, read once a process (the environment variable is read
/// then too).
pub fn cpu() -> &'static Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    CPU.get_or_init(|| {
        let forced = std::env::var(PORTABLE_ENV).is_ok_and(|v| v.trim() == "1");
        detect(forced)
    })
}

/// Whether `pdep` runs in a few cycles on this vendor and display family.
fn pdep_is_fast(vendor: &str, family: u32) -> bool {
    match vendor {
        "GenuineIntel" => true,
        // Zen 3 and later; Excavator (21), Zen and Zen 2 (23) microcode it.
        "AuthenticAMD" => family >= 25,
        // Hygon's Dhyana is Zen (family 24); other vendors unknown: not taken.
        _ => false,
    }
}

#[cfg(target_arch = "x86_64")]
fn detect(forced: bool) -> Cpu {
    use std::arch::x86_64::__cpuid;
    // SAFETY: CPUID is present on every x86-64 processor.
    let leaf0 = __cpuid(0);
    let mut vendor = Vec::with_capacity(12);
    for r in [leaf0.ebx, leaf0.edx, leaf0.ecx] {
        vendor.extend_from_slice(&r.to_le_bytes());
    }
    let vendor = String::from_utf8_lossy(&vendor).into_owned();
    let eax = __cpuid(1).eax;
    let base_family = (eax >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((eax >> 20) & 0xff)
    } else {
        base_family
    };
    let base_model = (eax >> 4) & 0xf;
    let model = if base_family == 0x6 || base_family == 0xf {
        base_model | (((eax >> 16) & 0xf) << 4)
    } else {
        base_model
    };
    let mut brand = Vec::with_capacity(48);
    if __cpuid(0x8000_0000).eax >= 0x8000_0004 {
        for leaf in 0x8000_0002..=0x8000_0004 {
            let r = __cpuid(leaf);
            for w in [r.eax, r.ebx, r.ecx, r.edx] {
                brand.extend_from_slice(&w.to_le_bytes());
            }
        }
    }
    let model_name = String::from_utf8_lossy(&brand)
        .trim_matches(char::from(0))
        .trim()
        .to_string();
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    let bmi2 = std::arch::is_x86_feature_detected!("bmi2");
    let fast_pdep = bmi2 && pdep_is_fast(&vendor, family);
    let select = if forced {
        SelectPath::Portable
    } else if fast_pdep && avx2 {
        SelectPath::Pdep
    } else if avx2 {
        SelectPath::Avx2
    } else {
        SelectPath::Portable
    };
    Cpu {
        arch: std::env::consts::ARCH,
        vendor,
        model_name,
        family,
        model,
        avx2,
        bmi2,
        fast_pdep,
        portable_forced: forced,
        select,
        unrank_avx2: avx2 && !forced,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect(forced: bool) -> Cpu {
    Cpu {
        arch: std::env::consts::ARCH,
        vendor: String::new(),
        model_name: String::new(),
        family: 0,
        model: 0,
        avx2: false,
        bmi2: false,
        fast_pdep: false,
        portable_forced: forced,
        select: SelectPath::Portable,
        unrank_avx2: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdep_is_fast_on_intel_and_from_zen_3_only() {
        assert!(pdep_is_fast("GenuineIntel", 6));
        assert!(!pdep_is_fast("AuthenticAMD", 21));
        assert!(!pdep_is_fast("AuthenticAMD", 23));
        assert!(pdep_is_fast("AuthenticAMD", 25));
        assert!(pdep_is_fast("AuthenticAMD", 26));
        assert!(!pdep_is_fast("HygonGenuine", 24));
    }

    #[test]
    fn forcing_the_portable_paths_takes_no_fast_path() {
        let c = detect(true);
        assert_eq!(c.select, SelectPath::Portable);
        assert!(!c.unrank_avx2);
        assert!(c.summary().contains("forced by DEALDEX_PORTABLE=1"));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_select_path_follows_the_features() {
        let c = detect(false);
        assert_eq!(c.select == SelectPath::Pdep, c.fast_pdep && c.avx2);
        assert_eq!(c.select == SelectPath::Avx2, !c.fast_pdep && c.avx2);
        assert!(!c.vendor.is_empty() && c.family > 0);
    }
}
