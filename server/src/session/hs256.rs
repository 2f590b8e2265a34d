//! The one signature algorithm the sessions use, HS256, as `jsonwebtoken`'s crypto provider:
//! RustCrypto's `hmac` and `sha2`, which the PostgreSQL client already builds for SCRAM.
//! The crate's bundled providers would bring either a C library (aws-lc, a fifth of a clean
//! release build) or RSA and elliptic-curve code the product never uses.
//!
//! Every other algorithm is refused when a key is made for it, on top of `Validation`, which
//! already accepts HS256 alone.

use hmac::{Hmac, KeyInit, Mac};
use jsonwebtoken::crypto::{CryptoProvider, JwtSigner, JwtVerifier, KeyUtils};
use jsonwebtoken::errors::{Error, ErrorKind};
use jsonwebtoken::signature::{self, Signer, Verifier};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

static PROVIDER: CryptoProvider =
    CryptoProvider { signer_factory, verifier_factory, key_utils: KeyUtils::new_unimplemented() };

/// Makes HS256 the process's provider. Idempotent; call before the first token is signed or
/// checked (`JwtKeys::new` does).
pub fn install() {
    // Err only means a provider is already in place: ours, from an earlier call.
    let _ = PROVIDER.install_default();
}

fn mac(algorithm: &Algorithm, secret: &[u8]) -> Result<HmacSha256, Error> {
    if *algorithm != Algorithm::HS256 {
        return Err(ErrorKind::InvalidAlgorithm.into());
    }
    HmacSha256::new_from_slice(secret).map_err(|_| ErrorKind::InvalidKeyFormat.into())
}

fn signer_factory(algorithm: &Algorithm, key: &EncodingKey) -> Result<Box<dyn JwtSigner>, Error> {
    Ok(Box::new(Hs256(mac(algorithm, key.as_bytes())?)))
}

fn verifier_factory(algorithm: &Algorithm, key: &DecodingKey) -> Result<Box<dyn JwtVerifier>, Error> {
    Ok(Box::new(Hs256(mac(algorithm, key.try_get_as_bytes()?)?)))
}

/// A MAC keyed with the secret, cloned for each message.
struct Hs256(HmacSha256);

impl Signer<Vec<u8>> for Hs256 {
    fn try_sign(&self, message: &[u8]) -> Result<Vec<u8>, signature::Error> {
        let mut mac = self.0.clone();
        mac.update(message);
        Ok(mac.finalize().into_bytes().to_vec())
    }
}

impl Verifier<Vec<u8>> for Hs256 {
    fn verify(&self, message: &[u8], tag: &Vec<u8>) -> Result<(), signature::Error> {
        let mut mac = self.0.clone();
        mac.update(message);
        // Constant-time comparison.
        mac.verify_slice(tag).map_err(|_| signature::Error::new())
    }
}

impl JwtSigner for Hs256 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::HS256
    }
}

impl JwtVerifier for Hs256 {
    fn algorithm(&self) -> Algorithm {
        Algorithm::HS256
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::{decode, encode, Header, Validation};
    use serde_json::{json, Value};

    const SECRET: &[u8] = b"a-secret-of-thirty-two-bytes-or-more-0123";

    fn claims() -> Value {
        json!({ "sub": "cajero1", "exp": chrono::Utc::now().timestamp() + 600 })
    }

    #[test]
    fn signs_the_rfc_7515_example_as_the_standard_says() {
        install();
        // RFC 7515, appendix A.1: the HS256 example's key, signing input and signature.
        let key = DecodingKey::from_jwk(
            &serde_json::from_value(json!({
                "kty": "oct",
                "k": "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
            }))
            .unwrap(),
        )
        .unwrap();
        let input = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9\
                     .eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
        let signature = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert!(jsonwebtoken::crypto::verify(signature, input.as_bytes(), &key, Algorithm::HS256).unwrap());
        assert!(!jsonwebtoken::crypto::verify(signature, b"x", &key, Algorithm::HS256).unwrap());
    }

    #[test]
    fn a_token_verifies_with_its_secret_only() {
        install();
        let token = encode(&Header::new(Algorithm::HS256), &claims(), &EncodingKey::from_secret(SECRET)).unwrap();
        let validation = Validation::new(Algorithm::HS256);
        assert!(decode::<Value>(&token, &DecodingKey::from_secret(SECRET), &validation).is_ok());
        let other = DecodingKey::from_secret(b"another-secret-of-thirty-two-bytes-012");
        assert!(decode::<Value>(&token, &other, &validation).is_err());
    }

    #[test]
    fn other_algorithms_are_refused() {
        install();
        for algorithm in [Algorithm::HS384, Algorithm::HS512] {
            let refused = encode(&Header::new(algorithm), &claims(), &EncodingKey::from_secret(SECRET));
            assert!(matches!(refused.unwrap_err().kind(), ErrorKind::InvalidAlgorithm), "{algorithm:?}");
        }
    }
}
