//===- tests/api/ImageTest.cpp - images and samplers ----------------------===//
//
// Device limits and format lists; clCreateImage and its error codes;
// clGetImageInfo; read/write/copy/fill/map and image<->buffer copies against
// host references with pitches; samplers; kernels that sample every
// addressing/filter/normalization combination, compared with an
// independent host implementation of the specification's addressing and
// filtering rules; kernels that write images (conversions, rounding,
// saturation); get_image_* queries.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

using namespace weft_test;

namespace {

using SamplerRef = Ref<cl_sampler, clReleaseSampler>;

class Images : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!deviceInfo<cl_bool>(Device, CL_DEVICE_IMAGE_SUPPORT))
      GTEST_SKIP() << "the device has no image support";
  }

  cl_mem makeImage(cl_mem_flags Flags, cl_channel_order Order,
                   cl_channel_type Type, cl_mem_object_type ImageType,
                   size_t W, size_t H = 1, size_t D = 1, size_t Array = 1,
                   void *Host = nullptr, size_t RowPitch = 0,
                   size_t SlicePitch = 0) {
    cl_image_format F{Order, Type};
    cl_image_desc Desc{};
    Desc.image_type = ImageType;
    Desc.image_width = W;
    Desc.image_height = H;
    Desc.image_depth = D;
    Desc.image_array_size = Array;
    Desc.image_row_pitch = RowPitch;
    Desc.image_slice_pitch = SlicePitch;
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateImage(Context, Flags, &F, &Desc, Host, &Err);
    EXPECT_CL_OK(Err) << " creating an image";
    return M;
  }

  cl_int tryCreate(cl_mem_flags Flags, const cl_image_format *F,
                   const cl_image_desc *Desc, void *Host = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateImage(Context, Flags, F, Desc, Host, &Err);
    if (M)
      clReleaseMemObject(M);
    return Err;
  }

  cl_sampler makeSampler(cl_bool Norm, cl_addressing_mode A, cl_filter_mode F) {
    cl_int Err = CL_SUCCESS;
    cl_sampler S = clCreateSampler(Context, Norm, A, F, &Err);
    EXPECT_CL_OK(Err);
    return S;
  }
};

std::vector<unsigned char> bytePattern(size_t N, unsigned Seed) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>(I * 31 + Seed * 7 + (I >> 7));
  return V;
}

TEST_P(Images, ImageSupportMacroIsDefined) {
  // Kernels test __IMAGE_SUPPORT__ to choose an image or a buffer path; a
  // device with images must define it in every OpenCL C version.
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
    ProgramRef P(buildProgram(Context, Device, R"CL(
#ifndef __IMAGE_SUPPORT__
#error __IMAGE_SUPPORT__ is not defined
#endif
kernel void k(global int *Out) { Out[0] = __IMAGE_SUPPORT__; }
)CL",
                              Std));
    EXPECT_NE(P.get(), nullptr) << Std;
  }
}

TEST_P(Images, DeviceLimitsMeetTheFullProfile) {
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384u);
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE3D_MAX_WIDTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE3D_MAX_HEIGHT), 2048u);
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE),
            65536u);
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_SAMPLERS), 16u);
}

TEST_P(Images, SupportedFormatsIncludeTheRequiredMinimum) {
  const cl_channel_type Types[] = {
      CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SNORM_INT8,     CL_SNORM_INT16,
      CL_SIGNED_INT8,  CL_SIGNED_INT16,  CL_SIGNED_INT32,   CL_UNSIGNED_INT8,
      CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,  CL_FLOAT};
  for (cl_mem_flags Flags :
       {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE})
    for (cl_mem_object_type T :
         {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
          CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
          CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D}) {
      cl_uint N = 0;
      ASSERT_CL_OK(clGetSupportedImageFormats(Context, Flags, T, 0, nullptr, &N));
      std::vector<cl_image_format> List(N);
      ASSERT_CL_OK(
          clGetSupportedImageFormats(Context, Flags, T, N, List.data(), nullptr));
      auto Has = [&](cl_channel_order O, cl_channel_type Ty) {
        for (const cl_image_format &F : List)
          if (F.image_channel_order == O && F.image_channel_data_type == Ty)
            return true;
        return false;
      };
      for (cl_channel_order O : {CL_R, CL_RG, CL_RGBA})
        for (cl_channel_type Ty : Types)
          EXPECT_TRUE(Has(O, Ty)) << std::hex << "order 0x" << O << " type 0x"
                                  << Ty << " flags 0x" << Flags;
      EXPECT_TRUE(Has(CL_BGRA, CL_UNORM_INT8));
      // Every listed format can be created.
      for (const cl_image_format &F : List) {
        cl_image_desc D{};
        D.image_type = CL_MEM_OBJECT_IMAGE2D;
        D.image_width = 4;
        D.image_height = 2;
        EXPECT_CL_OK(tryCreate(Flags, &F, &D));
      }
    }
  EXPECT_CL(CL_INVALID_VALUE,
            clGetSupportedImageFormats(Context, CL_MEM_READ_ONLY,
                                       CL_MEM_OBJECT_BUFFER, 0, nullptr,
                                       nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT,
            clGetSupportedImageFormats(nullptr, CL_MEM_READ_ONLY,
                                       CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                       nullptr));
}

TEST_P(Images, CreationErrors) {
  cl_image_format Good{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc D{};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = 8;
  D.image_height = 8;
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, nullptr, &D));
  cl_image_format BadOrder{0x1234, CL_UNORM_INT8};
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, &BadOrder, &D));
  cl_image_format BadCombo{CL_INTENSITY, CL_UNSIGNED_INT8};
  EXPECT_CL(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, &BadCombo, &D));
  cl_image_format Packed{CL_RGB, CL_UNORM_SHORT_565};
  EXPECT_CL(CL_IMAGE_FORMAT_NOT_SUPPORTED,
            tryCreate(CL_MEM_READ_WRITE, &Packed, &D));
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, &Good, nullptr));
  cl_image_desc Zero = D;
  Zero.image_width = 0;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, tryCreate(CL_MEM_READ_WRITE, &Good, &Zero));
  cl_image_desc NotImage = D;
  NotImage.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, &Good, &NotImage));
  cl_image_desc Pitch = D;
  Pitch.image_row_pitch = 64;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, &Good, &Pitch));
  std::vector<unsigned char> Host(8 * 8 * 4 * 2);
  cl_image_desc BadPitch = D;
  BadPitch.image_row_pitch = 30; // < 8 * 4
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR,
            tryCreate(CL_MEM_COPY_HOST_PTR, &Good, &BadPitch, Host.data()));
  BadPitch.image_row_pitch = 34; // not a multiple of 4
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR,
            tryCreate(CL_MEM_COPY_HOST_PTR, &Good, &BadPitch, Host.data()));
  size_t MaxW = deviceInfo<size_t>(Device, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  cl_image_desc Huge = D;
  Huge.image_width = MaxW + 1;
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, tryCreate(CL_MEM_READ_WRITE, &Good, &Huge));
  EXPECT_CL(CL_INVALID_HOST_PTR, tryCreate(CL_MEM_USE_HOST_PTR, &Good, &D));
  EXPECT_CL(CL_INVALID_HOST_PTR,
            tryCreate(CL_MEM_READ_WRITE, &Good, &D, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE,
            tryCreate(CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &Good, &D));
  cl_image_desc NoBuffer{};
  NoBuffer.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  NoBuffer.image_width = 8;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR,
            tryCreate(CL_MEM_READ_WRITE, &Good, &NoBuffer));
  cl_image_desc Arr{};
  Arr.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
  Arr.image_width = 4;
  Arr.image_height = 4;
  Arr.image_array_size = 0;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, tryCreate(CL_MEM_READ_WRITE, &Good, &Arr));
  // Images are not buffers.
  MemRef Img(makeImage(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8,
                       CL_MEM_OBJECT_IMAGE2D, 4, 4));
  unsigned char Byte[4];
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueReadBuffer(Queue, Img, CL_TRUE, 0,
                                                       4, Byte, 0, nullptr,
                                                       nullptr));
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, 64));
  size_t Size = 0;
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clGetImageInfo(Buf, CL_IMAGE_WIDTH, sizeof(Size), &Size, nullptr));
}

TEST_P(Images, InfoQueries) {
  struct Case {
    cl_mem_object_type Type;
    size_t W, H, D, A;
  } Cases[] = {{CL_MEM_OBJECT_IMAGE1D, 17, 1, 1, 1},
               {CL_MEM_OBJECT_IMAGE1D_ARRAY, 17, 1, 1, 5},
               {CL_MEM_OBJECT_IMAGE2D, 17, 9, 1, 1},
               {CL_MEM_OBJECT_IMAGE2D_ARRAY, 17, 9, 1, 3},
               {CL_MEM_OBJECT_IMAGE3D, 17, 9, 4, 1}};
  for (const Case &C : Cases) {
    MemRef Img(makeImage(CL_MEM_READ_ONLY, CL_RG, CL_UNSIGNED_INT16, C.Type,
                         C.W, C.H, C.D, C.A));
    ASSERT_TRUE(Img);
    auto Info = [&](cl_image_info P) {
      size_t V = 12345;
      EXPECT_CL_OK(clGetImageInfo(Img, P, sizeof(V), &V, nullptr));
      return V;
    };
    bool Has2 = C.Type == CL_MEM_OBJECT_IMAGE2D ||
                C.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                C.Type == CL_MEM_OBJECT_IMAGE3D;
    bool IsArray = C.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   C.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    EXPECT_EQ(Info(CL_IMAGE_ELEMENT_SIZE), 4u);
    EXPECT_EQ(Info(CL_IMAGE_WIDTH), C.W);
    EXPECT_EQ(Info(CL_IMAGE_HEIGHT), Has2 ? C.H : 0u);
    EXPECT_EQ(Info(CL_IMAGE_DEPTH), C.Type == CL_MEM_OBJECT_IMAGE3D ? C.D : 0u);
    EXPECT_EQ(Info(CL_IMAGE_ARRAY_SIZE), IsArray ? C.A : 0u);
    EXPECT_GE(Info(CL_IMAGE_ROW_PITCH), C.W * 4);
    cl_image_format F{};
    EXPECT_CL_OK(clGetImageInfo(Img, CL_IMAGE_FORMAT, sizeof(F), &F, nullptr));
    EXPECT_EQ(F.image_channel_order, cl_channel_order(CL_RG));
    EXPECT_EQ(F.image_channel_data_type, cl_channel_type(CL_UNSIGNED_INT16));
    cl_mem_object_type T = 0;
    EXPECT_CL_OK(clGetMemObjectInfo(Img, CL_MEM_TYPE, sizeof(T), &T, nullptr));
    EXPECT_EQ(T, C.Type);
  }
}

/// Round trip through every image type: create from a host block with
/// padded pitches, write a sub-region with other pitches, read a region
/// back, all against a host model of the pixels.
TEST_P(Images, WriteReadRoundTripsWithPitches) {
  const size_t E = 4; // CL_RGBA, CL_UNSIGNED_INT8
  struct Case {
    cl_mem_object_type Type;
    size_t W, H, D; // D: depth or layers
  } Cases[] = {{CL_MEM_OBJECT_IMAGE1D, 19, 1, 1},
               {CL_MEM_OBJECT_IMAGE1D_ARRAY, 19, 1, 4},
               {CL_MEM_OBJECT_IMAGE2D, 19, 7, 1},
               {CL_MEM_OBJECT_IMAGE2D_ARRAY, 19, 7, 3},
               {CL_MEM_OBJECT_IMAGE3D, 19, 7, 3}};
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Type);
    bool Is1DArray = C.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    // Host pixel model: index (x, y, z), z the slice or layer.
    size_t Rows = Is1DArray ? 1 : C.H;
    size_t N = C.W * Rows * C.D;
    std::vector<unsigned char> Model = bytePattern(N * E, 1);
    // Creation block with padded pitches.
    size_t RowPitch = (C.W + 3) * E;
    // The slice pitch must be a multiple of the row pitch.
    size_t SlicePitch = Is1DArray ? 2 * RowPitch : RowPitch * (Rows + 1);
    bool HasSlices = C.D > 1 || C.Type == CL_MEM_OBJECT_IMAGE3D ||
                     C.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY || Is1DArray;
    std::vector<unsigned char> Block(SlicePitch * C.D + RowPitch * Rows, 0xEE);
    for (size_t Z = 0; Z < C.D; ++Z)
      for (size_t Y = 0; Y < Rows; ++Y)
        memcpy(&Block[Z * SlicePitch + Y * RowPitch],
               &Model[((Z * Rows) + Y) * C.W * E], C.W * E);
    bool IsArray = Is1DArray || C.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    MemRef Img(makeImage(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE, CL_RGBA,
                         CL_UNSIGNED_INT8, C.Type, C.W, C.H,
                         C.Type == CL_MEM_OBJECT_IMAGE3D ? C.D : 1,
                         IsArray ? C.D : 1, Block.data(), RowPitch,
                         HasSlices ? SlicePitch : 0));
    ASSERT_TRUE(Img);
    // The region API's axes: (x, y or layer, z or layer).
    auto ApiVec = [&](size_t X, size_t Y, size_t Z) {
      std::array<size_t, 3> V{X, Y, Z};
      if (Is1DArray)
        V = {X, Z, 0};
      if (C.Type == CL_MEM_OBJECT_IMAGE1D)
        V = {X, 0, 0};
      if (C.Type == CL_MEM_OBJECT_IMAGE2D)
        V = {X, Y, 0};
      return V;
    };
    auto ApiRegion = [&](size_t X, size_t Y, size_t Z) {
      auto V = ApiVec(X, Y, Z);
      for (size_t &A : V)
        A = A ? A : 1;
      return V;
    };
    // Write a sub-region with host pitches.
    size_t OX = 2, OY = Rows > 1 ? 1 : 0, OZ = C.D > 1 ? 1 : 0;
    size_t RX = 5, RY = Rows > 1 ? 3 : 1, RZ = C.D > 1 ? 2 : 1;
    size_t HRow = RX * E + 4;
    size_t HSlice = Is1DArray ? HRow + 4 : HRow * RY + 8;
    std::vector<unsigned char> Src = bytePattern(HSlice * RZ + HRow * RY, 9);
    auto O = ApiVec(OX, OY, OZ);
    auto R = ApiRegion(RX, RY, RZ);
    ASSERT_CL_OK(clEnqueueWriteImage(Queue, Img, CL_TRUE, O.data(), R.data(),
                                     HRow, HasSlices ? HSlice : 0, Src.data(),
                                     0, nullptr, nullptr));
    for (size_t Z = 0; Z < RZ; ++Z)
      for (size_t Y = 0; Y < RY; ++Y)
        memcpy(&Model[(((OZ + Z) * Rows) + OY + Y) * C.W * E + OX * E],
               &Src[Z * HSlice + Y * (Is1DArray ? 0 : HRow)], RX * E);
    // Read everything back packed.
    std::vector<unsigned char> Back(N * E);
    size_t Zero[3] = {0, 0, 0};
    auto All = ApiRegion(C.W, Rows, C.D);
    ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, Zero, All.data(), 0,
                                    0, Back.data(), 0, nullptr, nullptr));
    EXPECT_EQ(Back, Model);
    // A region outside the image is refused.
    auto Bad = ApiRegion(C.W + 1, Rows, C.D);
    EXPECT_CL(CL_INVALID_VALUE,
              clEnqueueReadImage(Queue, Img, CL_TRUE, Zero, Bad.data(), 0, 0,
                                 Back.data(), 0, nullptr, nullptr));
  }
}

TEST_P(Images, UseHostPtrMapCopyFillAndBufferCopies) {
  const size_t W = 13, H = 6, E = 4, RowPitch = 16 * E;
  std::vector<unsigned char> Host = bytePattern(RowPitch * H, 3);
  MemRef Img(makeImage(CL_MEM_USE_HOST_PTR, CL_RGBA, CL_UNORM_INT8,
                       CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, Host.data(),
                       RowPitch));
  ASSERT_TRUE(Img);
  size_t Origin[3] = {3, 2, 0}, Region[3] = {4, 3, 1};
  size_t MapRow = 0;
  cl_int Err = CL_SUCCESS;
  auto *Mapped = static_cast<unsigned char *>(
      clEnqueueMapImage(Queue, Img, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                        Origin, Region, &MapRow, nullptr, 0, nullptr, nullptr,
                        &Err));
  ASSERT_CL_OK(Err);
  ASSERT_EQ(MapRow, RowPitch);
  EXPECT_EQ(Mapped, Host.data() + 2 * RowPitch + 3 * E); // zero-copy
  Mapped[0] = 0x42;
  ASSERT_CL_OK(clEnqueueUnmapMemObject(Queue, Img, Mapped, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  std::vector<unsigned char> Model = Host; // now includes 0x42

  // Image -> buffer -> another image, and a copy between images.
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, 256 + W * H * E));
  ASSERT_CL_OK(clEnqueueCopyImageToBuffer(Queue, Img, Buf, Origin, Region, 256,
                                          0, nullptr, nullptr));
  std::vector<unsigned char> Packed(Region[0] * Region[1] * E);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 256, Packed.size(),
                                   Packed.data(), 0, nullptr, nullptr));
  for (size_t Y = 0; Y < Region[1]; ++Y)
    EXPECT_EQ(0, memcmp(&Packed[Y * Region[0] * E],
                        &Model[(Origin[1] + Y) * RowPitch + Origin[0] * E],
                        Region[0] * E))
        << "row " << Y;
  MemRef Other(makeImage(CL_MEM_READ_WRITE, CL_RGBA, CL_UNORM_INT8,
                         CL_MEM_OBJECT_IMAGE2D, W, H));
  // The fill colour of a normalized format is always a float4.
  float Zeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  size_t Zero[3] = {0, 0, 0}, Full[3] = {W, H, 1};
  ASSERT_CL_OK(clEnqueueFillImage(Queue, Other, Zeros, Zero, Full, 0, nullptr,
                                  nullptr));
  size_t Dst[3] = {7, 1, 0};
  ASSERT_CL_OK(clEnqueueCopyBufferToImage(Queue, Buf, Other, 256, Dst, Region,
                                          0, nullptr, nullptr));
  std::vector<unsigned char> OtherModel(W * H * E, 0);
  for (size_t Y = 0; Y < Region[1]; ++Y)
    memcpy(&OtherModel[((Dst[1] + Y) * W + Dst[0]) * E],
           &Packed[Y * Region[0] * E], Region[0] * E);
  // Fill a region with a float colour: UNORM_INT8 rounds to nearest.
  float Color[4] = {0.5f, 1.5f, -0.25f, 0.2f};
  size_t FillOrigin[3] = {0, 4, 0}, FillRegion[3] = {5, 2, 1};
  ASSERT_CL_OK(clEnqueueFillImage(Queue, Other, Color, FillOrigin, FillRegion,
                                  0, nullptr, nullptr));
  const unsigned char Filled[4] = {128, 255, 0, 51};
  for (size_t Y = 4; Y < 6; ++Y)
    for (size_t X = 0; X < 5; ++X)
      memcpy(&OtherModel[(Y * W + X) * E], Filled, E);
  // Copy within one image, non-overlapping.
  size_t CopySrc[3] = {0, 4, 0}, CopyDst[3] = {8, 0, 0}, CopyRegion[3] = {2, 1, 1};
  ASSERT_CL_OK(clEnqueueCopyImage(Queue, Other, Other, CopySrc, CopyDst,
                                  CopyRegion, 0, nullptr, nullptr));
  memcpy(&OtherModel[(0 * W + 8) * E], &OtherModel[(4 * W + 0) * E], 2 * E);
  std::vector<unsigned char> Back(W * H * E);
  ASSERT_CL_OK(clEnqueueReadImage(Queue, Other, CL_TRUE, Zero, Full, 0, 0,
                                  Back.data(), 0, nullptr, nullptr));
  EXPECT_EQ(Back, OtherModel);
  // Overlapping copy and format mismatch are refused.
  size_t Overlap[3] = {1, 4, 0};
  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            clEnqueueCopyImage(Queue, Other, Other, CopySrc, Overlap,
                               CopyRegion, 0, nullptr, nullptr));
  MemRef Float(makeImage(CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT,
                         CL_MEM_OBJECT_IMAGE2D, W, H));
  EXPECT_CL(CL_IMAGE_FORMAT_MISMATCH,
            clEnqueueCopyImage(Queue, Other, Float, Zero, Zero, CopyRegion, 0,
                               nullptr, nullptr));
}

TEST_P(Images, Image1DBufferSharesItsBuffer) {
  const size_t W = 64;
  std::vector<unsigned char> Data = bytePattern(W * 4, 5);
  MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE, W * 4,
                        Data.data()));
  cl_image_format F{CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc D{};
  D.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  D.image_width = W;
  D.buffer = Buf;
  cl_int Err = CL_SUCCESS;
  MemRef Img(clCreateImage(Context, 0, &F, &D, nullptr, &Err));
  ASSERT_CL_OK(Err);
  cl_mem Assoc = nullptr;
  EXPECT_CL_OK(clGetImageInfo(Img, CL_IMAGE_BUFFER, sizeof(Assoc), &Assoc,
                              nullptr));
  EXPECT_EQ(Assoc, static_cast<cl_mem>(Buf));
  // Writing through the buffer shows through the image.
  Data[10] = 0x99;
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, Buf, CL_TRUE, 0, W * 4, Data.data(),
                                    0, nullptr, nullptr));
  std::vector<unsigned char> Back(W * 4);
  size_t Zero[3] = {0, 0, 0}, Region[3] = {W, 1, 1};
  ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, Zero, Region, 0, 0,
                                  Back.data(), 0, nullptr, nullptr));
  EXPECT_EQ(Back, Data);
  D.image_width = W + 1;
  EXPECT_NE(CL_SUCCESS, tryCreate(0, &F, &D));
}

// cl_khr_image2d_from_buffer: a 2D image over a buffer's storage with the
// application's row pitch; the buffer's bytes are the image's pixels both
// ways (transfers and kernels), and the pitch and size rules hold.
TEST_P(Images, Image2DFromBufferSharesItsBuffer) {
  std::set<std::string> Ext =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  cl_uint PitchAlign =
      deviceInfo<cl_uint>(Device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  cl_uint BaseAlign =
      deviceInfo<cl_uint>(Device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  if (!Ext.count("cl_khr_image2d_from_buffer")) {
    EXPECT_EQ(PitchAlign, 0u);
    EXPECT_EQ(BaseAlign, 0u);
    EXPECT_FALSE(testingWeft()) << "Weft supports cl_khr_image2d_from_buffer";
    GTEST_SKIP() << "no cl_khr_image2d_from_buffer";
  }
  ASSERT_GT(PitchAlign, 0u);
  ASSERT_GT(BaseAlign, 0u);
  const size_t W = 13, H = 7, Elem = 4;
  // A pitch of whole alignment units, longer than a row.
  const size_t Unit = PitchAlign * Elem;
  const size_t Pitch = ((W * Elem + Unit - 1) / Unit + 1) * Unit;
  std::vector<unsigned char> Data = bytePattern(Pitch * H, 3);
  MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_WRITE, Pitch * H,
                        Data.data()));
  cl_image_format F{CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc D{};
  D.image_type = CL_MEM_OBJECT_IMAGE2D;
  D.image_width = W;
  D.image_height = H;
  D.image_row_pitch = Pitch;
  D.mem_object = Buf;
  cl_int Err = CL_SUCCESS;
  MemRef Img(clCreateImage(Context, 0, &F, &D, nullptr, &Err));
  ASSERT_CL_OK(Err);
  size_t RowPitch = 0;
  EXPECT_CL_OK(clGetImageInfo(Img, CL_IMAGE_ROW_PITCH, sizeof(RowPitch),
                              &RowPitch, nullptr));
  EXPECT_EQ(RowPitch, Pitch);
  cl_mem Assoc = nullptr;
  EXPECT_CL_OK(clGetMemObjectInfo(Img, CL_MEM_ASSOCIATED_MEMOBJECT,
                                  sizeof(Assoc), &Assoc, nullptr));
  EXPECT_EQ(Assoc, static_cast<cl_mem>(Buf));

  // Read through the image: each row is the buffer's row, the padding
  // left out.
  std::vector<unsigned char> Back(W * Elem * H);
  size_t Zero[3] = {0, 0, 0}, Region[3] = {W, H, 1};
  ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, Zero, Region, 0, 0,
                                  Back.data(), 0, nullptr, nullptr));
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W * Elem; ++X)
      ASSERT_EQ(Back[Y * W * Elem + X], Data[Y * Pitch + X])
          << "row " << Y << " byte " << X;

  // A kernel adds 1 to every channel of every pixel (saturating, as
  // write_imageui converts); the buffer sees it, and its padding is
  // untouched.
  KernelRef K(makeKernel(
      "kernel void bump(read_only image2d_t In, write_only image2d_t Out) {\n"
      "  int2 P = (int2)(get_global_id(0), get_global_id(1));\n"
      "  write_imageui(Out, P, read_imageui(In, P) + (uint4)(1));\n"
      "}\n",
      "bump"));
  ASSERT_NE(K.get(), nullptr);
  MemRef Copy(makeImage(CL_MEM_READ_WRITE, CL_RGBA, CL_UNSIGNED_INT8,
                        CL_MEM_OBJECT_IMAGE2D, W, H));
  ASSERT_CL_OK(clEnqueueCopyImage(Queue, Img, Copy, Zero, Zero, Region, 0,
                                  nullptr, nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Copy));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Img));
  size_t Global[2] = {W, H};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr,
                                      0, nullptr, nullptr));
  std::vector<unsigned char> After(Pitch * H);
  ASSERT_CL_OK(readInto(Buf, After));
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < Pitch; ++X) {
      unsigned Old = Data[Y * Pitch + X];
      unsigned Want = X < W * Elem ? std::min(Old + 1, 255u) : Old;
      ASSERT_EQ(After[Y * Pitch + X], Want) << "row " << Y << " byte " << X;
    }

  // The rules: a pitch that is not a whole number of pixels, a buffer too
  // small for the rows, a 3D image from a buffer.
  cl_image_desc Bad = D;
  Bad.image_row_pitch = Pitch + 1;
  EXPECT_NE(CL_SUCCESS, tryCreate(0, &F, &Bad));
  Bad = D;
  Bad.image_height = H + 1;
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, tryCreate(0, &F, &Bad));
  Bad = D;
  Bad.image_row_pitch = 0;
  Bad.image_width = Pitch / Elem + 1;
  EXPECT_CL(CL_INVALID_IMAGE_SIZE, tryCreate(0, &F, &Bad));
  Bad = D;
  Bad.image_type = CL_MEM_OBJECT_IMAGE3D;
  Bad.image_depth = 1;
  EXPECT_CL(CL_INVALID_IMAGE_DESCRIPTOR, tryCreate(0, &F, &Bad));
  EXPECT_CL(CL_INVALID_VALUE, tryCreate(CL_MEM_ALLOC_HOST_PTR, &F, &D));
}

TEST_P(Images, SamplerObjects) {
  SamplerRef S(makeSampler(CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR));
  cl_bool Norm = CL_FALSE;
  cl_addressing_mode A = 0;
  cl_filter_mode F = 0;
  cl_uint Refs = 0;
  EXPECT_CL_OK(clGetSamplerInfo(S, CL_SAMPLER_NORMALIZED_COORDS, sizeof(Norm),
                                &Norm, nullptr));
  EXPECT_CL_OK(clGetSamplerInfo(S, CL_SAMPLER_ADDRESSING_MODE, sizeof(A), &A,
                                nullptr));
  EXPECT_CL_OK(
      clGetSamplerInfo(S, CL_SAMPLER_FILTER_MODE, sizeof(F), &F, nullptr));
  EXPECT_EQ(Norm, cl_bool(CL_TRUE));
  EXPECT_EQ(A, cl_addressing_mode(CL_ADDRESS_REPEAT));
  EXPECT_EQ(F, cl_filter_mode(CL_FILTER_LINEAR));
  EXPECT_CL_OK(clRetainSampler(S));
  EXPECT_CL_OK(clGetSamplerInfo(S, CL_SAMPLER_REFERENCE_COUNT, sizeof(Refs),
                                &Refs, nullptr));
  EXPECT_EQ(Refs, 2u);
  EXPECT_CL_OK(clReleaseSampler(S));
  cl_context Ctx = nullptr;
  EXPECT_CL_OK(
      clGetSamplerInfo(S, CL_SAMPLER_CONTEXT, sizeof(Ctx), &Ctx, nullptr));
  EXPECT_EQ(Ctx, static_cast<cl_context>(Context));

  const cl_sampler_properties Props[] = {
      CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE,
      CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  cl_int Err = CL_SUCCESS;
  SamplerRef P(clCreateSamplerWithProperties(Context, Props, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL_OK(
      clGetSamplerInfo(P, CL_SAMPLER_FILTER_MODE, sizeof(F), &F, nullptr));
  EXPECT_EQ(F, cl_filter_mode(CL_FILTER_NEAREST)); // the default
  size_t Size = 0;
  EXPECT_CL_OK(
      clGetSamplerInfo(P, CL_SAMPLER_PROPERTIES, 0, nullptr, &Size));
  EXPECT_EQ(Size, sizeof(Props));

  cl_sampler Bad = clCreateSampler(Context, CL_TRUE, 0x1234, CL_FILTER_LINEAR,
                                   &Err);
  EXPECT_EQ(Bad, nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  const cl_sampler_properties BadProps[] = {0x7777, 1, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(Context, BadProps, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_CL(CL_INVALID_SAMPLER, clRetainSampler(nullptr));
  EXPECT_EQ(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP,
                            CL_FILTER_NEAREST, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, Err);
}

//===----------------------------------------------------------------------===//
// Sampling: an independent host model of section "Image Addressing and
// Filtering" of the OpenCL C specification.
//===----------------------------------------------------------------------===//

struct HostImage {
  int Size[3]; // width, height, depth (1 when unused)
  int Layers;  // 0: not an array
  std::vector<float> Texels; // RGBA float, x fastest, then y, then z/layer

  bool hasTexel(const int P[3]) const {
    for (int D = 0; D < 3; ++D)
      if (P[D] < 0 || P[D] >= Size[D])
        return false;
    return true;
  }
  void texel(const int P[3], float Out[4]) const {
    if (!hasTexel(P)) { // border colour of RGBA: transparent black
      std::fill(Out, Out + 4, 0.0f);
      return;
    }
    size_t I = ((size_t(P[2]) * Size[1] + P[1]) * Size[0] + P[0]) * 4;
    std::copy(&Texels[I], &Texels[I] + 4, Out);
  }
};

/// The index rules per axis, as the specification writes them.
void hostNearest(float S, int N, bool Norm, cl_addressing_mode A, int &I) {
  if (A == CL_ADDRESS_REPEAT && Norm) {
    float U = (S - std::floor(S)) * N;
    I = static_cast<int>(std::floor(U));
    if (I > N - 1)
      I -= N;
    return;
  }
  if (A == CL_ADDRESS_MIRRORED_REPEAT && Norm) {
    float Sp = 2.0f * std::nearbyint(0.5f * S);
    Sp = std::fabs(S - Sp);
    float U = Sp * N;
    I = std::min(static_cast<int>(std::floor(U)), N - 1);
    return;
  }
  float U = Norm ? S * N : S;
  I = static_cast<int>(std::floor(U));
  if (A == CL_ADDRESS_CLAMP_TO_EDGE)
    I = std::clamp(I, 0, N - 1);
  else
    I = std::clamp(I, -1, N); // CLAMP (and NONE kept in range): border
}

void hostLinear(float S, int N, bool Norm, cl_addressing_mode A, int &I0,
                int &I1, float &Frac) {
  float U;
  if (A == CL_ADDRESS_REPEAT && Norm) {
    U = (S - std::floor(S)) * N;
    I0 = static_cast<int>(std::floor(U - 0.5f));
    I1 = I0 + 1;
    if (I0 < 0)
      I0 += N;
    if (I1 > N - 1)
      I1 -= N;
  } else if (A == CL_ADDRESS_MIRRORED_REPEAT && Norm) {
    float Sp = 2.0f * std::nearbyint(0.5f * S);
    Sp = std::fabs(S - Sp);
    U = Sp * N;
    I0 = static_cast<int>(std::floor(U - 0.5f));
    I1 = I0 + 1;
    I0 = std::max(I0, 0);
    I1 = std::min(I1, N - 1);
  } else {
    U = Norm ? S * N : S;
    I0 = static_cast<int>(std::floor(U - 0.5f));
    I1 = I0 + 1;
    if (A == CL_ADDRESS_CLAMP_TO_EDGE) {
      I0 = std::clamp(I0, 0, N - 1);
      I1 = std::clamp(I1, 0, N - 1);
    } else {
      I0 = std::clamp(I0, -1, N);
      I1 = std::clamp(I1, -1, N);
    }
  }
  float T = U - 0.5f;
  Frac = T - std::floor(T);
}

void hostSample(const HostImage &Img, int Dims, const float Coord[4],
                bool Norm, cl_addressing_mode A, cl_filter_mode F,
                float Out[4]) {
  int Fixed[3] = {0, 0, 0};
  if (Img.Layers)
    Fixed[2] = std::clamp(static_cast<int>(std::nearbyint(Coord[Dims])), 0,
                          Img.Layers - 1);
  if (F == CL_FILTER_NEAREST) {
    int P[3] = {Fixed[0], Fixed[1], Fixed[2]};
    for (int D = 0; D < Dims; ++D)
      hostNearest(Coord[D], Img.Size[D], Norm, A, P[D]);
    Img.texel(P, Out);
    return;
  }
  int Lo[3] = {Fixed[0], Fixed[1], Fixed[2]}, Hi[3] = {Fixed[0], Fixed[1], Fixed[2]};
  float W[3] = {0, 0, 0};
  for (int D = 0; D < Dims; ++D)
    hostLinear(Coord[D], Img.Size[D], Norm, A, Lo[D], Hi[D], W[D]);
  std::fill(Out, Out + 4, 0.0f);
  for (int Corner = 0; Corner < (1 << Dims); ++Corner) {
    int P[3] = {Lo[0], Lo[1], Lo[2]};
    float Weight = 1.0f;
    for (int D = 0; D < Dims; ++D) {
      bool Upper = Corner & (1 << D);
      P[D] = Upper ? Hi[D] : Lo[D];
      Weight *= Upper ? W[D] : 1.0f - W[D];
    }
    float T[4];
    Img.texel(P, T);
    for (int C = 0; C < 4; ++C)
      Out[C] += Weight * T[C];
  }
}

struct SamplingCase {
  cl_mem_object_type Type;
  int Dims;
  const char *ImageType;
  const char *CoordType;
  const char *CoordExpr; // from float4 c
};

/// Samples an RGBA FLOAT image of each type with every sampler combination
/// at coordinates inside, on edges and outside the image, and compares with
/// hostSample().
TEST_P(Images, SamplingMatchesTheSpecificationModel) {
  const SamplingCase Cases[] = {
      {CL_MEM_OBJECT_IMAGE1D, 1, "image1d_t", "float", "c.x"},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 1, "image1d_array_t", "float2", "c.xy"},
      {CL_MEM_OBJECT_IMAGE2D, 2, "image2d_t", "float2", "c.xy"},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, "image2d_array_t", "float4", "c"},
      {CL_MEM_OBJECT_IMAGE3D, 3, "image3d_t", "float4", "c"}};
  const int Size[3] = {5, 4, 3};
  const int Layers = 3;
  for (const SamplingCase &SC : Cases) {
    SCOPED_TRACE(SC.ImageType);
    bool IsArray = SC.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   SC.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    HostImage Host;
    Host.Size[0] = Size[0];
    Host.Size[1] = SC.Dims >= 2 ? Size[1] : 1;
    Host.Size[2] = SC.Dims == 3 ? Size[2] : (IsArray ? Layers : 1);
    Host.Layers = IsArray ? Layers : 0;
    size_t N = size_t(Host.Size[0]) * Host.Size[1] * Host.Size[2];
    Host.Texels.resize(N * 4);
    for (size_t I = 0; I < N * 4; ++I)
      Host.Texels[I] = static_cast<float>((I * 37) % 101) / 7.0f - 3.0f;
    MemRef Img(makeImage(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RGBA,
                         CL_FLOAT, SC.Type, Host.Size[0],
                         SC.Dims >= 2 ? Host.Size[1] : 1,
                         SC.Dims == 3 ? Host.Size[2] : 1,
                         IsArray ? Layers : 1, Host.Texels.data()));
    ASSERT_TRUE(Img);
    std::string Src = std::string("kernel void k(read_only ") + SC.ImageType +
                      " img, sampler_t s, global const float4 *coords, "
                      "global float4 *out) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  float4 c = coords[i];\n"
                      "  out[i] = read_imagef(img, s, (" +
                      SC.CoordType + ")(" + SC.CoordExpr + "));\n}\n";
    KernelRef K(makeKernel(Src, "k"));
    ASSERT_TRUE(K);
    // Coordinates: a grid of fractions, inside and outside, both scales.
    std::vector<float> Coords;
    const float Fracs[] = {-1.3f, -0.6f, -0.1f, 0.0f, 0.1f,  0.37f,
                           0.5f,  0.77f, 0.99f, 1.0f, 1.26f, 2.61f};
    for (float A : Fracs)
      for (float B : {0.2f, 0.55f, 1.1f})
        for (float L : {-1.0f, 0.4f, 1.5f, 7.0f})
          Coords.insert(Coords.end(), {A, B * (A + 0.3f), B, L});
    size_t Count = Coords.size() / 4;
    MemRef CoordBuf(makeBuffer(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY,
                               Coords.size() * 4, Coords.data()));
    MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, Count * 16));
    for (cl_bool Norm : {CL_FALSE, CL_TRUE})
      for (cl_addressing_mode A :
           {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
            CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT})
        for (cl_filter_mode F : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
          if (!Norm &&
              (A == CL_ADDRESS_REPEAT || A == CL_ADDRESS_MIRRORED_REPEAT))
            continue; // undefined by the specification
          SCOPED_TRACE(testing::Message() << "normalized " << Norm
                                          << " addressing 0x" << std::hex << A
                                          << " filter 0x" << F);
          SamplerRef S(makeSampler(Norm, A, F));
          // Unnormalized coordinates use the image's scale.
          std::vector<float> Scaled = Coords;
          if (!Norm)
            for (size_t I = 0; I < Count; ++I)
              for (int D = 0; D < SC.Dims; ++D)
                Scaled[I * 4 + D] *= Host.Size[D];
          ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, CoordBuf, CL_TRUE, 0,
                                            Scaled.size() * 4, Scaled.data(),
                                            0, nullptr, nullptr));
          cl_mem ImgArg = Img, CoordArg = CoordBuf, OutArg = Out;
          cl_sampler SArg = S;
          ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ImgArg));
          ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_sampler), &SArg));
          ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &CoordArg));
          ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &OutArg));
          ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Count,
                                              nullptr, 0, nullptr, nullptr));
          std::vector<float> Got(Count * 4);
          ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, Count * 16,
                                           Got.data(), 0, nullptr, nullptr));
          int Mismatches = 0;
          for (size_t I = 0; I < Count && Mismatches < 5; ++I) {
            float Want[4];
            hostSample(Host, SC.Dims, &Scaled[I * 4], Norm, A, F, Want);
            for (int C = 0; C < 4; ++C)
              if (std::fabs(Got[I * 4 + C] - Want[C]) > 1e-4f) {
                ++Mismatches;
                ADD_FAILURE() << "coord (" << Scaled[I * 4] << ", "
                              << Scaled[I * 4 + 1] << ", " << Scaled[I * 4 + 2]
                              << ", " << Scaled[I * 4 + 3] << ") channel " << C
                              << ": got " << Got[I * 4 + C] << " want "
                              << Want[C];
                break;
              }
          }
        }
  }
}

/// Reads of each channel type convert as the specification says; missing
/// channels read as 0 and alpha as 1; a constant sampler in the source
/// works; sampler-less reads; the channel queries.
TEST_P(Images, ChannelConversionsOnRead) {
  const char *Src = R"(
    const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE |
                              CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    kernel void rf(read_only image2d_t img, global float4 *out,
                   global int *info) {
      int x = get_global_id(0), y = get_global_id(1);
      int w = get_image_width(img);
      out[y * w + x] = read_imagef(img, nearest, (int2)(x, y));
      if (x == 0 && y == 0) {
        info[0] = get_image_channel_data_type(img);
        info[1] = get_image_channel_order(img);
        info[2] = get_image_dim(img).y;
      }
    }
    kernel void ri(read_only image2d_t img, global int4 *out) {
      int x = get_global_id(0), y = get_global_id(1);
      out[y * get_image_width(img) + x] = read_imagei(img, (int2)(x, y));
    }
    kernel void ru(read_only image2d_t img, global uint4 *out) {
      int x = get_global_id(0), y = get_global_id(1);
      out[y * get_image_width(img) + x] = read_imageui(img, (int2)(x, y));
    })";
  ProgramRef P(buildProgram(Context, Device, Src));
  ASSERT_TRUE(P);
  const size_t W = 4, H = 2;
  struct Case {
    cl_channel_order Order;
    cl_channel_type Type;
    std::vector<unsigned char> Bytes; // one texel, repeated
    float Want[4];
  };
  auto Half = [](uint16_t H) {
    std::vector<unsigned char> B(2);
    memcpy(B.data(), &H, 2);
    return B;
  };
  std::vector<Case> Cases = {
      {CL_RGBA, CL_UNORM_INT8, {0, 51, 255, 128}, {0.0f, 0.2f, 1.0f, 128 / 255.0f}},
      {CL_BGRA, CL_UNORM_INT8, {255, 0, 51, 102}, {0.2f, 0.0f, 1.0f, 0.4f}},
      {CL_R, CL_SNORM_INT8, {0x80}, {-1.0f, 0.0f, 0.0f, 1.0f}},
      {CL_RG, CL_UNORM_INT16, {0xff, 0xff, 0x00, 0x80}, {1.0f, 32768 / 65535.0f, 0.0f, 1.0f}},
      {CL_A, CL_UNORM_INT8, {255}, {0.0f, 0.0f, 0.0f, 1.0f}},
      {CL_INTENSITY, CL_UNORM_INT8, {51}, {0.2f, 0.2f, 0.2f, 0.2f}},
      {CL_LUMINANCE, CL_UNORM_INT8, {51}, {0.2f, 0.2f, 0.2f, 1.0f}},
      {CL_R, CL_HALF_FLOAT, Half(0x3e00), {1.5f, 0.0f, 0.0f, 1.0f}},
      {CL_R, CL_HALF_FLOAT, Half(0x0001), {5.9604645e-8f, 0.0f, 0.0f, 1.0f}},
      {CL_R, CL_HALF_FLOAT, Half(0xc000), {-2.0f, 0.0f, 0.0f, 1.0f}},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(testing::Message() << std::hex << "order 0x" << C.Order
                                    << " type 0x" << C.Type);
    std::vector<unsigned char> Block;
    for (size_t I = 0; I < W * H; ++I)
      Block.insert(Block.end(), C.Bytes.begin(), C.Bytes.end());
    MemRef Img(makeImage(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, C.Order,
                         C.Type, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1,
                         Block.data()));
    MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, W * H * 16));
    MemRef Info(makeBuffer(CL_MEM_WRITE_ONLY, 16));
    cl_int Err;
    KernelRef K(clCreateKernel(P, "rf", &Err));
    ASSERT_CL_OK(Err);
    cl_mem A0 = Img, A1 = Out, A2 = Info;
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &A0));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &A1));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &A2));
    size_t Global[2] = {W, H};
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr,
                                        0, nullptr, nullptr));
    std::vector<float> Got(W * H * 4);
    cl_int Queried[3];
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, Got.size() * 4,
                                     Got.data(), 0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Info, CL_TRUE, 0, sizeof(Queried),
                                     Queried, 0, nullptr, nullptr));
    for (size_t I = 0; I < W * H; ++I)
      for (int Ch = 0; Ch < 4; ++Ch)
        EXPECT_NEAR(Got[I * 4 + Ch], C.Want[Ch], 1e-6f) << "channel " << Ch;
    EXPECT_EQ(Queried[0], static_cast<cl_int>(C.Type));
    EXPECT_EQ(Queried[1], static_cast<cl_int>(C.Order));
    EXPECT_EQ(Queried[2], static_cast<cl_int>(H));
  }
  // Integer reads: sign extension and the alpha default of 1.
  {
    const signed char Texel[2] = {-5, 100};
    std::vector<signed char> Block;
    for (size_t I = 0; I < W * H; ++I)
      Block.insert(Block.end(), Texel, Texel + 2);
    MemRef Img(makeImage(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RG,
                         CL_SIGNED_INT8, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1,
                         Block.data()));
    MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, W * H * 16));
    cl_int Err;
    KernelRef K(clCreateKernel(P, "ri", &Err));
    cl_mem A0 = Img, A1 = Out;
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &A0));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &A1));
    size_t Global[2] = {W, H};
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr,
                                        0, nullptr, nullptr));
    std::vector<cl_int> Got(W * H * 4);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, Got.size() * 4,
                                     Got.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < W * H; ++I) {
      EXPECT_EQ(Got[I * 4 + 0], -5);
      EXPECT_EQ(Got[I * 4 + 1], 100);
      EXPECT_EQ(Got[I * 4 + 2], 0);
      EXPECT_EQ(Got[I * 4 + 3], 1);
    }
  }
  {
    const cl_uint Texel[4] = {0xdeadbeefu, 7, 0, 4000000000u};
    std::vector<cl_uint> Block;
    for (size_t I = 0; I < W * H; ++I)
      Block.insert(Block.end(), Texel, Texel + 4);
    MemRef Img(makeImage(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, CL_RGBA,
                         CL_UNSIGNED_INT32, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1,
                         Block.data()));
    MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, W * H * 16));
    cl_int Err;
    KernelRef K(clCreateKernel(P, "ru", &Err));
    cl_mem A0 = Img, A1 = Out;
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &A0));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &A1));
    size_t Global[2] = {W, H};
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr,
                                        0, nullptr, nullptr));
    std::vector<cl_uint> Got(W * H * 4);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, Got.size() * 4,
                                     Got.data(), 0, nullptr, nullptr));
    EXPECT_EQ(Got, Block);
  }
}

/// write_imagef/i/ui convert with round-to-nearest-even and saturation,
/// for 2-D, 3-D and array images.
TEST_P(Images, KernelWritesConvertAndSaturate) {
  const char *Src = R"(
    kernel void wf(write_only image2d_t img, global const float4 *in) {
      int x = get_global_id(0);
      write_imagef(img, (int2)(x, 1), in[x]);
    }
    kernel void wi(write_only image3d_t img, global const int4 *in) {
      int x = get_global_id(0);
      write_imagei(img, (int4)(x, 0, 2, 0), in[x]);
    }
    kernel void wu(write_only image2d_array_t img, global const uint4 *in) {
      int x = get_global_id(0);
      write_imageui(img, (int4)(x, 1, 1, 0), in[x]);
    }
    kernel void wh(write_only image1d_t img, global const float4 *in) {
      int x = get_global_id(0);
      write_imagef(img, x, in[x]);
    })";
  ProgramRef P(buildProgram(Context, Device, Src));
  ASSERT_TRUE(P);
  auto Run = [&](const char *Name, cl_mem Img, const void *In, size_t Count) {
    MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, Count * 16,
                          const_cast<void *>(In)));
    cl_int Err;
    KernelRef K(clCreateKernel(P, Name, &Err));
    ASSERT_CL_OK(Err);
    cl_mem B = Buf;
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Img));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &B));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Count, nullptr,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(Queue));
  };
  // UNORM_INT8, RGBA: x*255 rounded to nearest even, clamped; NaN -> 0.
  {
    const float In[] = {0.0f, 1.0f, 0.5f, 2.0f,       -1.0f, 0.2f, 0.998f,
                        NAN,  0.5f / 255, 1.5f / 255, 2.5f / 255, 0.25f};
    MemRef Img(makeImage(CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8,
                         CL_MEM_OBJECT_IMAGE2D, 3, 2));
    Run("wf", Img, In, 3);
    std::vector<unsigned char> Got(3 * 4);
    size_t O[3] = {0, 1, 0}, R[3] = {3, 1, 1};
    ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, O, R, 0, 0,
                                    Got.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < 12; ++I) {
      float V = std::isnan(In[I]) ? 0.0f
                                  : std::clamp(In[I] * 255.0f, 0.0f, 255.0f);
      EXPECT_EQ(Got[I], static_cast<unsigned char>(std::nearbyint(V)))
          << "input " << In[I];
    }
  }
  // SIGNED_INT8 in a 3-D image: saturating conversion.
  {
    const cl_int In[] = {-200, -128, 5, 127, 128, 1000, 0, -1};
    MemRef Img(makeImage(CL_MEM_WRITE_ONLY, CL_RGBA, CL_SIGNED_INT8,
                         CL_MEM_OBJECT_IMAGE3D, 2, 2, 3));
    Run("wi", Img, In, 2);
    signed char Got[8];
    size_t O[3] = {0, 0, 2}, R[3] = {2, 1, 1};
    ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, O, R, 0, 0, Got, 0,
                                    nullptr, nullptr));
    for (int I = 0; I < 8; ++I)
      EXPECT_EQ(Got[I], static_cast<signed char>(std::clamp(In[I], -128, 127)));
  }
  // UNSIGNED_INT16 in layer 1 of a 2-D array, RG order (extra channels
  // dropped).
  {
    const cl_uint In[] = {70000, 3, 9, 9, 65535, 65536, 1, 1};
    MemRef Img(makeImage(CL_MEM_WRITE_ONLY, CL_RG, CL_UNSIGNED_INT16,
                         CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 2, 1, 3));
    Run("wu", Img, In, 2);
    uint16_t Got[4];
    size_t O[3] = {0, 1, 1}, R[3] = {2, 1, 1};
    ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, O, R, 0, 0, Got, 0,
                                    nullptr, nullptr));
    EXPECT_EQ(Got[0], 65535);
    EXPECT_EQ(Got[1], 3);
    EXPECT_EQ(Got[2], 65535);
    EXPECT_EQ(Got[3], 65535);
  }
  // HALF_FLOAT: round to nearest even, overflow to infinity.
  {
    const float In[] = {1.0f,     -2.5f,   65504.0f, 70000.0f,
                        1.0f + 1.0f / 2048, // halfway: rounds to even 1.0
                        1.0f + 3.0f / 2048, // halfway: rounds up
                        6.0e-8f, 0.0f};
    const uint16_t Want[] = {0x3c00, 0xc100, 0x7bff, 0x7c00,
                             0x3c00, 0x3c02, 0x0001, 0x0000};
    MemRef Img(makeImage(CL_MEM_WRITE_ONLY, CL_RGBA, CL_HALF_FLOAT,
                         CL_MEM_OBJECT_IMAGE1D, 2));
    Run("wh", Img, In, 2);
    uint16_t Got[8];
    size_t O[3] = {0, 0, 0}, R[3] = {2, 1, 1};
    ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, O, R, 0, 0, Got, 0,
                                    nullptr, nullptr));
    for (int I = 0; I < 8; ++I)
      EXPECT_EQ(Got[I], Want[I]) << "input " << In[I];
  }
}

TEST_P(Images, KernelArgumentChecksAndQueries) {
  const char *Src = R"(
    kernel void q(read_only image3d_t a, read_only image1d_array_t b,
                  read_only image2d_array_t c, global int *out) {
      int4 d = get_image_dim(a);
      out[0] = d.x; out[1] = d.y; out[2] = d.z; out[3] = get_image_depth(a);
      out[4] = get_image_width(b); out[5] = (int)get_image_array_size(b);
      out[6] = get_image_height(c); out[7] = (int)get_image_array_size(c);
    })";
  KernelRef K(makeKernel(Src, "q"));
  ASSERT_TRUE(K);
  MemRef A(makeImage(CL_MEM_READ_ONLY, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D,
                     5, 6, 7));
  MemRef B(makeImage(CL_MEM_READ_ONLY, CL_R, CL_FLOAT,
                     CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 1, 1, 4));
  MemRef C(makeImage(CL_MEM_READ_ONLY, CL_R, CL_FLOAT,
                     CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 8, 1, 2));
  MemRef W(makeImage(CL_MEM_WRITE_ONLY, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D,
                     5, 6, 7));
  MemRef Out(makeBuffer(CL_MEM_WRITE_ONLY, 8 * sizeof(cl_int)));
  cl_mem Args[4] = {A, B, C, Out};
  // Wrong image type, write-only image for read_only, a buffer, a sampler
  // where an image belongs.
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(K, 0, sizeof(cl_mem), &Args[1]));
  cl_mem WArg = W;
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(K, 0, sizeof(cl_mem), &WArg));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(K, 0, sizeof(cl_mem), &Args[3]));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clSetKernelArg(K, 3, sizeof(cl_mem), &Args[0]));
  for (cl_uint I = 0; I < 4; ++I)
    ASSERT_CL_OK(clSetKernelArg(K, I, sizeof(cl_mem), &Args[I]));
  size_t One = 1;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 0,
                                      nullptr, nullptr));
  cl_int Got[8];
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, sizeof(Got), Got, 0,
                                   nullptr, nullptr));
  const cl_int Want[8] = {5, 6, 7, 7, 9, 4, 8, 2};
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Got[I], Want[I]) << "query " << I;
}

/// A read_write image in OpenCL C 3.0: each work-item reads its texel and
/// writes it back transformed.
TEST_P(Images, ReadWriteImageInOpenCLC30) {
  const char *Src = R"(
    kernel void rw(read_write image2d_t img) {
      int2 p = (int2)(get_global_id(0), get_global_id(1));
      uint4 v = read_imageui(img, p);
      write_imageui(img, p, v * 3u + (uint4)(1, 2, 3, 4));
    })";
  KernelRef K(makeKernel(Src, "rw", "-cl-std=CL3.0"));
  ASSERT_TRUE(K);
  const size_t W = 8, H = 5;
  std::vector<cl_ushort> Data(W * H * 4);
  std::iota(Data.begin(), Data.end(), 0);
  MemRef Img(makeImage(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, CL_RGBA,
                       CL_UNSIGNED_INT16, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1,
                       Data.data()));
  cl_mem A = Img;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &A));
  size_t Global[2] = {W, H};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_ushort> Got(Data.size());
  size_t Zero[3] = {0, 0, 0}, Region[3] = {W, H, 1};
  ASSERT_CL_OK(clEnqueueReadImage(Queue, Img, CL_TRUE, Zero, Region, 0, 0,
                                  Got.data(), 0, nullptr, nullptr));
  for (size_t I = 0; I < Data.size(); ++I)
    EXPECT_EQ(Got[I], static_cast<cl_ushort>(Data[I] * 3 + 1 + I % 4));
}

WEFT_INSTANTIATE_DEVICE_TEST(Images);

} // namespace
