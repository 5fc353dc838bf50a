//===- examples/AESEncryptDecrypt.cpp - AES-128 on uchar4 state rows ------===//
//
// Encrypts a Size x Size RGBA image (4 * Size^2 bytes, 16-byte blocks in
// ECB mode) with AES-128 as FIPS-197 defines it, then decrypts the
// ciphertext with the inverse cipher. The host expands the key and builds
// the S-boxes from their definition (inverse in GF(2^8), then the affine
// map); the kernels read them from constant memory.
//
// One work-group of 4 work-items per block: work-item R holds row R of the
// 4x4 state as a uchar4. SubBytes is four table lookups, ShiftRows a
// rotation of the work-item's own row, and MixColumns, which mixes the
// four rows of each column, goes through local memory between two
// barriers. Small work-groups with barriers and table lookups: the shape
// of the classic GPU samples of this cipher.
//
// The host's own AES is checked against FIPS-197's known answers; block 0
// of the image is FIPS-197's Appendix C.1 plaintext under its key, so the
// device's first ciphertext block is a known answer too. Every device block
// is compared with the host's, and the decryption with the image.
//
//===----------------------------------------------------------------------===//

#include "common/ExampleCommon.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

using namespace example;

static constexpr unsigned Rounds = 10; // AES-128

static const char *const Source = R"CLC(
uchar4 subBytes(uchar4 V, constant uchar *Box) {
  return (uchar4)(Box[V.x], Box[V.y], Box[V.z], Box[V.w]);
}

// Element C of the result is element (C + N) % 4 of V.
uchar4 rotateLeft(uchar4 V, uint N) {
  return N == 1 ? V.yzwx : N == 2 ? V.zwxy : N == 3 ? V.wxyz : V;
}

// Multiplication by x (that is, 2) in GF(2^8) modulo x^8+x^4+x^3+x+1.
uchar4 xtime(uchar4 V) {
  return (V << (uchar4)1) ^ ((V >> (uchar4)7) * (uchar4)0x1b);
}

uchar4 gfMul(uchar4 V, uint Factor) {
  uchar4 Product = (uchar4)0;
  for (; Factor; Factor >>= 1, V = xtime(V))
    if (Factor & 1)
      Product ^= V;
  return Product;
}

uchar4 loadRow(global const uchar *Block, uint R) {
  return (uchar4)(Block[R], Block[4 + R], Block[8 + R], Block[12 + R]);
}

void storeRow(global uchar *Block, uint R, uchar4 Row) {
  Block[R] = Row.x;
  Block[4 + R] = Row.y;
  Block[8 + R] = Row.z;
  Block[12 + R] = Row.w;
}

// RoundKeys[4 * Round + R] is row R of round key Round.
kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void aesEncrypt(global const uchar *In, global uchar *Out,
                constant uchar4 *RoundKeys, constant uchar *SBox,
                uint Rounds) {
  local uchar4 State[4];
  uint R = get_local_id(0);
  size_t Block = get_group_id(0) * 16;
  uchar4 Row = loadRow(In + Block, R) ^ RoundKeys[R];
  for (uint Round = 1; Round < Rounds; ++Round) {
    Row = rotateLeft(subBytes(Row, SBox), R);
    State[R] = Row;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar4 Row1 = State[(R + 1) & 3], Row2 = State[(R + 2) & 3],
           Row3 = State[(R + 3) & 3];
    barrier(CLK_LOCAL_MEM_FENCE);
    // MixColumns: 2 * row R + 3 * row R+1 + row R+2 + row R+3.
    Row = xtime(Row) ^ xtime(Row1) ^ Row1 ^ Row2 ^ Row3;
    Row ^= RoundKeys[4 * Round + R];
  }
  Row = rotateLeft(subBytes(Row, SBox), R) ^ RoundKeys[4 * Rounds + R];
  storeRow(Out + Block, R, Row);
}

kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void aesDecrypt(global const uchar *In, global uchar *Out,
                constant uchar4 *RoundKeys, constant uchar *InvSBox,
                uint Rounds) {
  local uchar4 State[4];
  uint R = get_local_id(0);
  size_t Block = get_group_id(0) * 16;
  uchar4 Row = loadRow(In + Block, R) ^ RoundKeys[4 * Rounds + R];
  for (uint Round = Rounds - 1; Round > 0; --Round) {
    Row = subBytes(rotateLeft(Row, (4 - R) & 3), InvSBox);
    Row ^= RoundKeys[4 * Round + R];
    State[R] = Row;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar4 Row1 = State[(R + 1) & 3], Row2 = State[(R + 2) & 3],
           Row3 = State[(R + 3) & 3];
    barrier(CLK_LOCAL_MEM_FENCE);
    // InvMixColumns: 14 * row R + 11 * row R+1 + 13 * row R+2 + 9 * row R+3.
    Row = gfMul(Row, 14) ^ gfMul(Row1, 11) ^ gfMul(Row2, 13) ^ gfMul(Row3, 9);
  }
  Row = subBytes(rotateLeft(Row, (4 - R) & 3), InvSBox) ^ RoundKeys[R];
  storeRow(Out + Block, R, Row);
}
)CLC";

namespace {

using Block = std::array<cl_uchar, 16>;

cl_uchar xtime(cl_uchar V) { return cl_uchar((V << 1) ^ ((V >> 7) * 0x1b)); }

cl_uchar gfMul(cl_uchar A, cl_uchar B) {
  cl_uchar Product = 0;
  for (; B; B >>= 1, A = xtime(A))
    if (B & 1)
      Product ^= A;
  return Product;
}

cl_uchar rotl8(cl_uchar V, unsigned N) {
  return cl_uchar((V << N) | (V >> (8 - N)));
}

/// The host's AES-128: FIPS-197's byte-oriented description, state byte
/// I in row I % 4, column I / 4.
struct Aes128 {
  std::array<cl_uchar, 256> SBox, InvSBox;
  std::array<cl_uchar, 16 * (Rounds + 1)> RoundKeys;

  explicit Aes128(const cl_uchar *Key) {
    for (unsigned X = 0; X < 256; ++X) {
      // The multiplicative inverse is X^254 (X^255 = 1); 0 maps to 0.
      cl_uchar Inverse = 1;
      for (unsigned I = 0; I < 254; ++I)
        Inverse = gfMul(Inverse, cl_uchar(X));
      if (X == 0)
        Inverse = 0;
      cl_uchar S = Inverse ^ rotl8(Inverse, 1) ^ rotl8(Inverse, 2) ^
                   rotl8(Inverse, 3) ^ rotl8(Inverse, 4) ^ 0x63;
      SBox[X] = S;
      InvSBox[S] = cl_uchar(X);
    }
    // Key expansion: words W[0..43], four bytes each.
    memcpy(RoundKeys.data(), Key, 16);
    cl_uchar Rcon = 1;
    for (unsigned I = 4; I < 4 * (Rounds + 1); ++I) {
      cl_uchar T[4];
      memcpy(T, &RoundKeys[4 * (I - 1)], 4);
      if (I % 4 == 0) {
        cl_uchar First = T[0];
        T[0] = cl_uchar(SBox[T[1]] ^ Rcon);
        T[1] = SBox[T[2]];
        T[2] = SBox[T[3]];
        T[3] = SBox[First];
        Rcon = xtime(Rcon);
      }
      for (unsigned B = 0; B < 4; ++B)
        RoundKeys[4 * I + B] = RoundKeys[4 * (I - 4) + B] ^ T[B];
    }
  }

  void addRoundKey(Block &S, unsigned Round) const {
    for (unsigned I = 0; I < 16; ++I)
      S[I] ^= RoundKeys[16 * Round + I];
  }

  /// Row R moves R places left (Inverse: right).
  static void shiftRows(Block &S, bool Inverse) {
    Block Old = S;
    for (unsigned R = 1; R < 4; ++R)
      for (unsigned C = 0; C < 4; ++C) {
        unsigned From = Inverse ? (C + 4 - R) % 4 : (C + R) % 4;
        S[R + 4 * C] = Old[R + 4 * From];
      }
  }

  static void mixColumns(Block &S, const cl_uchar (&M)[4]) {
    for (unsigned C = 0; C < 4; ++C) {
      cl_uchar A[4];
      memcpy(A, &S[4 * C], 4);
      for (unsigned R = 0; R < 4; ++R)
        S[4 * C + R] = gfMul(A[R], M[0]) ^ gfMul(A[(R + 1) % 4], M[1]) ^
                       gfMul(A[(R + 2) % 4], M[2]) ^
                       gfMul(A[(R + 3) % 4], M[3]);
    }
  }

  Block encrypt(Block S) const {
    static const cl_uchar Mix[4] = {2, 3, 1, 1};
    addRoundKey(S, 0);
    for (unsigned Round = 1; Round <= Rounds; ++Round) {
      for (cl_uchar &B : S)
        B = SBox[B];
      shiftRows(S, false);
      if (Round != Rounds)
        mixColumns(S, Mix);
      addRoundKey(S, Round);
    }
    return S;
  }

  Block decrypt(Block S) const {
    static const cl_uchar InvMix[4] = {14, 11, 13, 9};
    addRoundKey(S, Rounds);
    for (unsigned Round = Rounds; Round-- > 0;) {
      shiftRows(S, true);
      for (cl_uchar &B : S)
        B = InvSBox[B];
      addRoundKey(S, Round);
      if (Round != 0)
        mixColumns(S, InvMix);
    }
    return S;
  }
};

Block fromHex(const char *Hex) {
  Block B;
  for (unsigned I = 0; I < 16; ++I) {
    unsigned V = 0;
    sscanf(Hex + 2 * I, "%2x", &V);
    B[I] = cl_uchar(V);
  }
  return B;
}

std::string toHex(const cl_uchar *Bytes) {
  std::string S;
  char Buf[3];
  for (unsigned I = 0; I < 16; ++I) {
    snprintf(Buf, sizeof(Buf), "%02x", Bytes[I]);
    S += Buf;
  }
  return S;
}

/// FIPS-197 Appendix B and C.1. Empty when the host's cipher and inverse
/// cipher give their answers.
std::string checkKnownAnswers() {
  static const char *const Vectors[][3] = {
      {"2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
       "3925841d02dc09fbdc118597196a0b32"},
      {"000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
       "69c4e0d86a7b0430d8cdb78070b4c55a"},
  };
  for (const auto &V : Vectors) {
    Block Key = fromHex(V[0]), Plain = fromHex(V[1]), Cipher = fromHex(V[2]);
    Aes128 Aes(Key.data());
    Block Got = Aes.encrypt(Plain);
    if (Got != Cipher)
      return std::string("host AES-128 of ") + V[1] + " is " +
             toHex(Got.data()) + ", FIPS-197 says " + V[2];
    Got = Aes.decrypt(Cipher);
    if (Got != Plain)
      return std::string("host inverse AES-128 of ") + V[2] + " is " +
             toHex(Got.data()) + ", FIPS-197 says " + V[1];
  }
  return "";
}

} // namespace

static Result run(Session &S) {
  const size_t Side = S.Opts->Size, Bytes = 4 * Side * Side;
  if (Bytes % 16)
    throw Error("--size must be even (whole 16-byte blocks)");
  const size_t Blocks = Bytes / 16;
  Result R;
  R.Detail = checkKnownAnswers();
  if (!R.Detail.empty())
    return R;

  // FIPS-197 C.1's key, and its plaintext as block 0.
  const Block Key = fromHex("000102030405060708090a0b0c0d0e0f");
  const Block KnownPlain = fromHex("00112233445566778899aabbccddeeff");
  const Block KnownCipher = fromHex("69c4e0d86a7b0430d8cdb78070b4c55a");
  Aes128 Aes(Key.data());
  std::vector<cl_uint> Random = randomUints(Bytes, 2001, 256);
  std::vector<cl_uchar> Image(Random.begin(), Random.end());
  std::copy(KnownPlain.begin(), KnownPlain.end(), Image.begin());

  // The kernels read round key rows: row R of key K is bytes R, R+4, R+8,
  // R+12 of the key.
  std::vector<cl_uchar> KeyRows(16 * (Rounds + 1));
  for (unsigned K = 0; K <= Rounds; ++K)
    for (unsigned Row = 0; Row < 4; ++Row)
      for (unsigned C = 0; C < 4; ++C)
        KeyRows[16 * K + 4 * Row + C] = Aes.RoundKeys[16 * K + 4 * C + Row];

  Mem PlainBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Bytes, Image.data()));
  Mem CipherBuf(S.buffer(CL_MEM_READ_WRITE, Bytes));
  Mem DecryptedBuf(S.buffer(CL_MEM_WRITE_ONLY, Bytes));
  Mem KeyBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, KeyRows.size(),
                      KeyRows.data()));
  Mem SBoxBuf(
      S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 256, Aes.SBox.data()));
  Mem InvSBoxBuf(S.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 256,
                          Aes.InvSBox.data()));
  Program P(S.build(Source));
  Kernel Encrypt(S.kernel(P, "aesEncrypt"));
  Kernel Decrypt(S.kernel(P, "aesDecrypt"));
  setArg(Encrypt, 0, PlainBuf.H);
  setArg(Encrypt, 1, CipherBuf.H);
  setArg(Encrypt, 2, KeyBuf.H);
  setArg(Encrypt, 3, SBoxBuf.H);
  setArg(Encrypt, 4, cl_uint(Rounds));
  setArg(Decrypt, 0, CipherBuf.H);
  setArg(Decrypt, 1, DecryptedBuf.H);
  setArg(Decrypt, 2, KeyBuf.H);
  setArg(Decrypt, 3, InvSBoxBuf.H);
  setArg(Decrypt, 4, cl_uint(Rounds));

  double EncryptMs =
      S.timeMedian([&] { enqueue1D(S, Encrypt, 4 * Blocks, 4); });
  double DecryptMs =
      S.timeMedian([&] { enqueue1D(S, Decrypt, 4 * Blocks, 4); });
  R.KernelMs = EncryptMs + DecryptMs;
  std::vector<cl_uchar> Cipher(Bytes), Decrypted(Bytes);
  readBuffer(S, CipherBuf, Cipher);
  readBuffer(S, DecryptedBuf, Decrypted);

  if (memcmp(Cipher.data(), KnownCipher.data(), 16)) {
    R.Detail = "block 0 (FIPS-197 C.1) encrypted to " + toHex(Cipher.data()) +
               ", expected " + toHex(KnownCipher.data());
    return R;
  }
  for (size_t B = 0; B < Blocks; ++B) {
    Block Plain;
    memcpy(Plain.data(), &Image[16 * B], 16);
    Block Want = Aes.encrypt(Plain);
    if (memcmp(&Cipher[16 * B], Want.data(), 16)) {
      R.Detail = "ciphertext block " + std::to_string(B) + " is " +
                 toHex(&Cipher[16 * B]) + ", expected " + toHex(Want.data());
      return R;
    }
    if (memcmp(&Decrypted[16 * B], Plain.data(), 16)) {
      R.Detail = "decrypted block " + std::to_string(B) + " is " +
                 toHex(&Decrypted[16 * B]) + ", expected " +
                 toHex(Plain.data());
      return R;
    }
  }
  char Buf[96];
  snprintf(Buf, sizeof(Buf), "encrypt %.3f ms, decrypt %.3f ms", EncryptMs,
           DecryptMs);
  R.Detail = Buf;
  R.Pass = true;
  return R;
}

int main(int Argc, char **Argv) {
  return runExample(Argc, Argv, "AESEncryptDecrypt", 512,
                    "image width and height (RGBA pixels, 4 bytes each)", run);
}
