//! Standard Webhooks signatures: `whsec_` secrets and the `v1,` HMAC-SHA256 of
//! `{webhook-id}.{webhook-timestamp}.{body}` (docs/webhooks.md).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use rand::RngCore;
use sha2::Sha256;

/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";

/// Random bytes in a new secret (the specification asks for 24 to 64).
const SECRET_BYTES: usize = 32;

/// A new endpoint secret: `whsec_` and 32 random bytes in base64.
pub fn new_secret() -> String {
    let mut key = [0u8; SECRET_BYTES];
    rand::rng().fill_bytes(&mut key);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(key))
}

/// The `webhook-signature` header of a message: `v1,` and the base64 HMAC-SHA256, keyed with the
/// secret's decoded bytes, of `id.timestamp.body`. `None` for a secret that is not `whsec_` and
/// base64 (which [`new_secret`] never makes).
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    Some(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks specification's reference libraries.
    #[test]
    fn signs_the_specifications_example() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn new_secrets_are_random_base64_of_32_bytes() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        let key = STANDARD.decode(a.strip_prefix(SECRET_PREFIX).unwrap()).unwrap();
        assert_eq!(key.len(), 32);
        assert!(signature(&a, "msg_1", 1, "{}").unwrap().starts_with("v1,"));
        assert_eq!(signature("not-a-secret", "msg_1", 1, "{}"), None);
    }
}
