//! The worker's message codec: bincode's encoding, and a reader of our own for the few shapes
//! the messages have.
//!
//! Why our own reader: bincode's error type formats serde's `Unexpected` values, floats
//! included, so decoding with it brings float printing (about 15 KB of code) into the page's
//! wasm, which never prints a float otherwise (see `decimal`). The messages between the page
//! and the worker are typed values: enums (of every variant shape), structs, tuples, options,
//! sequences, strings, booleans and integers (bincode's variable-length form; signed ones
//! zigzagged). That is all this reader reads: no floats, no maps, nothing self-describing. Its
//! errors carry no text.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};

/// Writes a worker message: bincode's standard encoding, as the bytes of a `Uint8Array`.
#[must_use]
pub fn encode<I: Serialize>(input: &I) -> JsValue {
    // Not `expect`: the error's `Debug` (and std's I/O errors' with it) would come into the
    // page's download for a case that cannot happen.
    let bytes = bincode::serde::encode_to_vec(input, bincode::config::standard())
        .unwrap_or_else(|_| unreachable!("a worker message always encodes"));
    js_sys::Uint8Array::from(bytes.as_slice()).into()
}

/// Reads a worker message [`encode`] wrote.
///
/// # Errors
/// [`WireError`] when `input` is not a `Uint8Array` holding such a message.
pub fn decode<O: for<'de> Deserialize<'de>>(input: &JsValue) -> Result<O, WireError> {
    let bytes = input.dyn_ref::<js_sys::Uint8Array>().ok_or(WireError)?.to_vec();
    from_bytes(&bytes)
}

/// `value` as the other side reads it: written by bincode, read by [`from_bytes`] (what
/// [`encode`] and [`decode`] do, without the `Uint8Array`), for tests of the messages.
///
/// # Errors
/// [`WireError`] when the reader does not read back what bincode wrote.
pub fn round_trip<T: Serialize + for<'de> Deserialize<'de>>(value: &T) -> Result<T, WireError> {
    let bytes =
        bincode::serde::encode_to_vec(value, bincode::config::standard()).map_err(|_| WireError)?;
    from_bytes(&bytes)
}

/// A message that is not what it should be. No text: see the module docs.
#[derive(Debug, PartialEq, Eq)]
pub struct WireError;

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("unreadable worker message")
    }
}

impl std::error::Error for WireError {}

impl de::Error for WireError {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        WireError
    }
    // serde's defaults format what they found (floats too): not here.
    fn invalid_type(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        WireError
    }
    fn invalid_value(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        WireError
    }
    fn invalid_length(_: usize, _: &dyn de::Expected) -> Self {
        WireError
    }
    fn unknown_variant(_: &str, _: &'static [&'static str]) -> Self {
        WireError
    }
    fn unknown_field(_: &str, _: &'static [&'static str]) -> Self {
        WireError
    }
    fn missing_field(_: &'static str) -> Self {
        WireError
    }
    fn duplicate_field(_: &'static str) -> Self {
        WireError
    }
}

/// Reads a value bincode's standard configuration wrote, of the shapes described above.
///
/// # Errors
/// [`WireError`] for anything else, or bytes left over.
pub fn from_bytes<'de, O: Deserialize<'de>>(bytes: &'de [u8]) -> Result<O, WireError> {
    let mut reader = Reader { bytes, at: 0 };
    let value = O::deserialize(&mut reader)?;
    if reader.at == bytes.len() { Ok(value) } else { Err(WireError) }
}

struct Reader<'de> {
    bytes: &'de [u8],
    at: usize,
}

impl<'de> Reader<'de> {
    fn take(&mut self, n: usize) -> Result<&'de [u8], WireError> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.bytes.len()).ok_or(WireError)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    /// bincode's variable-length integer: one byte up to 250, else a marker and 2, 4 or 8
    /// little-endian bytes.
    fn varint(&mut self) -> Result<u64, WireError> {
        let first = self.take(1)?[0];
        let width = match first {
            0..=250 => return Ok(u64::from(first)),
            251 => 2,
            252 => 4,
            253 => 8,
            _ => return Err(WireError),
        };
        let mut value = 0_u64;
        for (i, &b) in self.take(width)?.iter().enumerate() {
            value |= u64::from(b) << (8 * i);
        }
        Ok(value)
    }
}

/// Reads an unsigned integer of bincode's variable-length form into the narrower type `$ty`.
macro_rules! unsigned {
    ($($method:ident $visit:ident $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
            visitor.$visit(<$ty>::try_from(self.varint()?).map_err(|_| WireError)?)
        }
    )*};
}

/// Reads a signed integer: bincode zigzags it (0, -1, 1, -2 ... as 0, 1, 2, 3 ...) first.
macro_rules! signed {
    ($($method:ident $visit:ident $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
            let zigzag = self.varint()?;
            let value = (zigzag >> 1) as i64 ^ -((zigzag & 1) as i64);
            visitor.$visit(<$ty>::try_from(value).map_err(|_| WireError)?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = WireError;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, WireError> {
        Err(WireError)
    }

    unsigned!(deserialize_u64 visit_u64 u64, deserialize_u32 visit_u32 u32, deserialize_u16 visit_u16 u16);
    signed!(deserialize_i64 visit_i64 i64, deserialize_i32 visit_i32 i32, deserialize_i16 visit_i16 i16);

    /// A byte is written as it is, not in the variable-length form.
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        visitor.visit_u8(self.take(1)?[0])
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.take(1)?[0] {
            0 => visitor.visit_bool(false),
            1 => visitor.visit_bool(true),
            _ => Err(WireError),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        let len = usize::try_from(self.varint()?).map_err(|_| WireError)?;
        let text = std::str::from_utf8(self.take(len)?).map_err(|_| WireError)?;
        visitor.visit_borrowed_str(text)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        match self.take(1)?[0] {
            0 => visitor.visit_none(),
            1 => visitor.visit_some(self),
            _ => Err(WireError),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, WireError> {
        visitor.visit_newtype_struct(self)
    }

    /// A sequence: its length, then its items. The length is only believed as far as the bytes
    /// left could hold it (every item takes at least one byte), so a forged length fails fast.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, WireError> {
        let len = usize::try_from(self.varint()?).map_err(|_| WireError)?;
        if len > self.bytes.len() - self.at {
            return Err(WireError);
        }
        visitor.visit_seq(Items { reader: self, left: len })
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, WireError> {
        visitor.visit_seq(Items { reader: self, left: len })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, WireError> {
        visitor.visit_seq(Items { reader: self, left: len })
    }

    /// A struct: its fields in order, as a tuple (bincode writes no names).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, WireError> {
        visitor.visit_seq(Items { reader: self, left: fields.len() })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, WireError> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        i8 i128 u128 f32 f64 char bytes byte_buf unit_struct map identifier ignored_any
    }
}

/// The items of a sequence, or the fields of a tuple, struct or variant, in order.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = WireError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, WireError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'de> de::EnumAccess<'de> for &mut Reader<'de> {
    type Error = WireError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), WireError> {
        let index = u32::try_from(self.varint()?).map_err(|_| WireError)?;
        let value = seed.deserialize(IntoDeserializer::<WireError>::into_deserializer(index))?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = WireError;

    fn unit_variant(self) -> Result<(), WireError> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, WireError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, WireError> {
        visitor.visit_seq(Items { reader: self, left: len })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, WireError> {
        visitor.visit_seq(Items { reader: self, left: fields.len() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shapes of the envelopes ([`crate::think::ToWorker`], [`crate::think::FromWorker`]).
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Id(usize);

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Envelope {
        Connected(Id),
        Process(Id, String),
        Destroy,
    }

    fn round_trip(value: &Envelope) -> Result<Envelope, WireError> {
        let bytes = bincode::serde::encode_to_vec(value, bincode::config::standard()).unwrap();
        from_bytes(&bytes)
    }

    #[test]
    fn reads_what_bincode_writes() {
        let long = "棋 ".repeat(40_000);
        for value in [
            Envelope::Connected(Id(7)),
            Envelope::Connected(Id(70_000)),
            Envelope::Connected(Id(usize::MAX)),
            Envelope::Process(Id(300), "A|1|300|chess|variant=standard|startpos:0|e2e4".into()),
            Envelope::Process(Id(1), long),
            Envelope::Destroy,
        ] {
            assert_eq!(round_trip(&value), Ok(value));
        }
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        assert_eq!(from_bytes::<Envelope>(&[]), Err(WireError));
        assert_eq!(from_bytes::<Envelope>(&[9]), Err(WireError), "no such variant");
        assert_eq!(from_bytes::<Envelope>(&[1, 1, 5, b'a']), Err(WireError), "string cut short");
        assert_eq!(from_bytes::<Envelope>(&[2, 0]), Err(WireError), "bytes left over");
        assert_eq!(from_bytes::<Envelope>(&[1, 1, 2, 0xff, 0xfe]), Err(WireError), "not UTF-8");
        assert_eq!(from_bytes::<f64>(&[0; 8]), Err(WireError), "floats are not ours");
    }

    /// The other shapes the typed messages have.
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Message {
        Reply { id: u64, best: Option<(u8, u8)>, lines: Vec<Line>, done: bool },
        Scored(i32, i64, i16, u16),
        Nothing,
    }

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Line {
        depth: u32,
        moves: Vec<u8>,
        range: std::ops::Range<usize>,
    }

    fn round_trip_message(value: &Message) -> Result<Message, WireError> {
        let bytes = bincode::serde::encode_to_vec(value, bincode::config::standard()).unwrap();
        from_bytes(&bytes)
    }

    #[test]
    fn reads_structs_options_sequences_and_signed_numbers() {
        let line = |depth, moves: &[u8]| Line { depth, moves: moves.to_vec(), range: 3..70_000 };
        for value in [
            Message::Reply { id: 1, best: None, lines: Vec::new(), done: false },
            Message::Reply {
                id: u64::MAX,
                best: Some((255, 0)),
                lines: vec![line(12, &[0, 250, 251, 255]), line(0, &[])],
                done: true,
            },
            Message::Scored(i32::MIN, i64::MAX, -1, u16::MAX),
            Message::Scored(i32::MAX, i64::MIN, i16::MIN, 0),
            Message::Scored(-300, 0, 1, 251),
            Message::Nothing,
        ] {
            assert_eq!(round_trip_message(&value), Ok(value));
        }
        // Option and boolean tags other than 0 and 1 are refused, as is a length the bytes left
        // could not hold.
        assert_eq!(from_bytes::<Option<u8>>(&[2, 0]), Err(WireError));
        assert_eq!(from_bytes::<bool>(&[2]), Err(WireError));
        assert_eq!(
            from_bytes::<Vec<u8>>(&[253, 255, 255, 255, 255, 255, 255, 255, 127]),
            Err(WireError)
        );
        assert_eq!(from_bytes::<u16>(&[252, 0, 0, 1, 0]), Err(WireError), "too big for a u16");
    }
}
