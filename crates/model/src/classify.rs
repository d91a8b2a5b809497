//! From any error to dealdex's view of it: [`as_classify`] finds the [`Classify`] of a
//! dealdex error behind a `&dyn Error` (a cause of an `anyhow::Error`, a `Box<dyn Error>`),
//! and [`classify`] the class of a whole chain of causes, which is what the binary turns
//! into its exit code.
//!
//! Each error type of every dealdex crate registers itself beside its `impl Classify`, with
//! `crate::classified!(Type);` in this crate and the engine (which re-imports the macro),
//! `dealdex_model::classified!(Type);` in the others (other forms of
//! [`classified!`](crate::classified) also write the impl): a downcaster to its [`Classify`] goes
//! into a distributed slice (the `linkme` crate, which every registering crate depends on), which
//! [`as_classify`] walks. Stable Rust cannot cast a `&dyn Error` to a `&dyn Classify` directly, and
//! this way no file lists the error types. The engine's unit test `error_registry` fails for an
//! error type of any of the crates (a type deriving or implementing `std::error::Error`) that does
//! not implement [`Classify`] and register in its own file.

use std::error::Error;

use crate::{Classify, ErrorClass};

/// One error type's registration (written by [`classified!`](crate::classified)): its name
/// and its downcaster.
pub struct Classified {
    /// [`std::any::type_name`] of the type (for the engine's test that checks the
    /// registrations).
    name: fn() -> &'static str,
    /// `Some` when the error is of this type.
    cast: for<'a> fn(&'a (dyn Error + 'static)) -> Option<&'a (dyn Classify + 'static)>,
}

impl Classified {
    /// The registration of `T` (for [`classified!`]).
    pub const fn of<T: Classify + 'static>() -> Classified {
        Classified {
            name: std::any::type_name::<T>,
            cast: cast::<T>,
        }
    }
}

/// `error` as a `T`, seen as its [`Classify`].
fn cast<'a, T: Classify + 'static>(
    error: &'a (dyn Error + 'static),
) -> Option<&'a (dyn Classify + 'static)> {
    error
        .downcast_ref::<T>()
        .map(|e| e as &(dyn Classify + 'static))
}

/// The registered error types, in no particular order: each error value is of exactly one
/// type and the unit test refuses a type registered twice, so at most one of them matches
/// it and the order does not matter.
#[linkme::distributed_slice]
pub static CLASSIFIED: [Classified];

/// Registers an error type, so that [`as_classify`] (and so [`classify`] and the binary's
/// exit code) knows it; written beside the type. Its forms:
///
/// - `crate::classified!(Type);` beside a hand-written `impl Classify for Type`;
/// - `crate::classified!(Type => BadInput);` also writes the impl for a type always of one
///   [`ErrorClass`] (the reason as a comment at the call);
/// - `crate::classified!(Error => boxed ErrorKind);` for a crate's one error in rust-csv's
///   style, `pub struct Error(Box<ErrorKind>)` (its `ErrorKind` classified on its own): also
///   writes `Error::kind`, `Error::into_kind`, `From<ErrorKind>` and the impl, each answer
///   its kind's;
/// - `crate::classified!(Error => boxed ErrorKind, with position);` as the form before, and
///   `Error::position`, its kind's (for the errors that can be about a place in a text or a
///   file);
/// - `crate::classified!(Error => boxed ErrorKind, with position, from io);` as the form
///   before, and `From<std::io::Error>` making the kind's `Io(error)` variant;
/// - `crate::classified! { /// Doc. #[derive(Clone)] pub struct Error(Box<ErrorKind>), with
///   position }` declares the error type too, with the attributes given, `Debug` and
///   `thiserror::Error` (transparent: its message is its kind's), then as the `boxed` form
///   with what follows the comma (the calling crate depends on `thiserror`);
/// - `crate::classified!(ErrorKind => class { Kind::A(_) => Io, _ => BadInput }, position {
///   Kind::B { line, .. } => InputPosition::at_line(*line) });` also writes the impl for an
///   error kind from its two tables: each pattern's [`ErrorClass`], and the position of the
///   kinds that have one (`None` for the others; the `position` table may be left out, as
///   for an error of no place);
/// - `crate::classified!(Type => wraps A, B);` also writes the impl for an enum each of
///   whose variants `A(e)`, `B(e)` wraps (transparently) one dealdex error: `e`'s class and
///   position, and `e` as the wrapped error.
#[macro_export]
macro_rules! classified {
    ($(#[$attr:meta])* pub struct $t:ident(Box<$k:ident>) $(, $($rest:tt)+)?) => {
        $(#[$attr])*
        #[derive(Debug, ::thiserror::Error)]
        #[error(transparent)]
        pub struct $t(::std::boxed::Box<$k>);
        $crate::classified!($t => boxed $k $(, $($rest)+)?);
    };
    ($k:ident => class { $($cp:pat => $class:ident),+ $(,)? }
        $(, position { $($pp:pat => $at:expr),+ $(,)? })? $(,)?) => {
        $crate::classified!($k);
        impl $crate::Classify for $k {
            fn class(&self) -> $crate::ErrorClass {
                match self {
                    $($cp => $crate::ErrorClass::$class,)+
                }
            }

            $(fn position(&self) -> ::core::option::Option<$crate::InputPosition> {
                match self {
                    $($pp => ::core::option::Option::Some($at),)+
                    _ => ::core::option::Option::None,
                }
            })?
        }
    };
    ($t:ty) => {
        const _: () = {
            #[linkme::distributed_slice($crate::classify::CLASSIFIED)]
            static CLASSIFIED_TYPE: $crate::classify::Classified =
                $crate::classify::Classified::of::<$t>();
        };
    };
    ($t:ident => boxed $k:ident) => {
        $crate::classified!($t);
        impl $t {
            /// What went wrong.
            pub fn kind(&self) -> &$k {
                &self.0
            }

            /// What went wrong, taken out.
            pub fn into_kind(self) -> $k {
                *self.0
            }
        }

        impl ::core::convert::From<$k> for $t {
            fn from(kind: $k) -> $t {
                $t(::std::boxed::Box::new(kind))
            }
        }

        impl $crate::Classify for $t {
            /// Its kind's class.
            fn class(&self) -> $crate::ErrorClass {
                $crate::Classify::class(self.kind())
            }

            /// Its kind's position.
            fn position(&self) -> ::core::option::Option<$crate::InputPosition> {
                $crate::Classify::position(self.kind())
            }

            /// Its kind's inner error.
            fn wrapped(&self) -> ::core::option::Option<&(dyn ::std::error::Error + 'static)> {
                $crate::Classify::wrapped(self.kind())
            }

            /// Its kind's format kind.
            fn format_kind(&self) -> ::core::option::Option<&'static str> {
                $crate::Classify::format_kind(self.kind())
            }
        }
    };
    ($t:ident => boxed $k:ident, with position) => {
        $crate::classified!($t => boxed $k);
        impl $t {
            /// Where the problem is, as its kind says (`None` for a kind about no place).
            pub fn position(&self) -> ::core::option::Option<$crate::InputPosition> {
                $crate::Classify::position(self.kind())
            }
        }
    };
    ($t:ident => boxed $k:ident, with position, from io) => {
        $crate::classified!($t => boxed $k, with position);
        impl ::core::convert::From<::std::io::Error> for $t {
            /// An I/O failure: the kind's `Io`.
            fn from(error: ::std::io::Error) -> $t {
                $k::Io(error).into()
            }
        }
    };
    ($t:ty => wraps $($variant:ident),+ $(,)?) => {
        $crate::classified!($t);
        impl $crate::Classify for $t {
            fn class(&self) -> $crate::ErrorClass {
                match self {
                    $(Self::$variant(e) => $crate::Classify::class(e),)+
                }
            }

            fn position(&self) -> Option<$crate::InputPosition> {
                match self {
                    $(Self::$variant(e) => $crate::Classify::position(e),)+
                }
            }

            fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
                match self {
                    $(Self::$variant(e) => Some(e),)+
                }
            }
        }
    };
    ($t:ty => $class:ident) => {
        $crate::classified!($t);
        impl $crate::Classify for $t {
            fn class(&self) -> $crate::ErrorClass {
                $crate::ErrorClass::$class
            }
        }
    };
}

/// The [`Classify`] of `error` when it is one of dealdex's error types (any public error
/// type of the library); `None` for other errors (I/O, SQLite, a caller's own). Only
/// `error` itself is looked at, not its sources ([`classify`] walks them).
///
/// ```
/// use dealdex::{ErrorClass, as_classify};
/// let e: Box<dyn std::error::Error> = dealdex::parse_deal("N:AKQ.x").unwrap_err().into();
/// let c = as_classify(&*e).unwrap();
/// assert_eq!((c.class(), c.position().unwrap().column), (ErrorClass::BadInput, Some(7)));
/// ```
pub fn as_classify<'a>(error: &'a (dyn Error + 'static)) -> Option<&'a (dyn Classify + 'static)> {
    CLASSIFIED.iter().find_map(|c| (c.cast)(error))
}

/// The class of `error` and its sources ([`Error::source`], e.g. the chain of an
/// `anyhow::Error`): [`ErrorClass::Interrupted`] when any of them is interrupted; else the
/// first input class ([`ErrorClass::is_input`]: bad input, a corrupt store) among them, as
/// a failure caused by bad input is the input's fault whatever wraps it; else the class of
/// the first of dealdex's errors; `None` when there is none ([`as_classify`]).
///
/// ```
/// use dealdex::{ErrorClass, classify};
/// let e: Box<dyn std::error::Error> = dealdex::parse_deal("N:AKQ.x").unwrap_err().into();
/// assert_eq!(classify(&*e), Some(ErrorClass::BadInput));
/// let e: Box<dyn std::error::Error> = std::io::Error::other("disk full").into();
/// assert_eq!(classify(&*e), None);
/// ```
pub fn classify(error: &(dyn Error + 'static)) -> Option<ErrorClass> {
    let mut first = None;
    let mut input = None;
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(class) = as_classify(e).map(Classify::class) {
            if class == ErrorClass::Interrupted {
                return Some(class);
            }
            if class.is_input() {
                input.get_or_insert(class);
            }
            first.get_or_insert(class);
        }
        next = e.source();
    }
    input.or(first)
}

/// The full names ([`std::any::type_name`]) of the registered error types, for the test
/// that checks every error type of dealdex's crates registers beside its definition.
pub fn registered_names() -> impl Iterator<Item = &'static str> {
    CLASSIFIED.iter().map(|c| (c.name)())
}

#[cfg(test)]
mod tests {
    /// `vocabulary.rs` names no type of the crate (its doc comments may link to them): the
    /// class, position and kind of each error type live beside the type.
    #[test]
    fn the_vocabulary_uses_nothing_of_the_crate() {
        let code: Vec<&str> = include_str!("vocabulary.rs")
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .filter(|l| l.contains("crate::") || l.contains("super::"))
            .collect();
        assert!(code.is_empty(), "{code:?}");
    }
}
