//===- Image.h - Images (cl_mem) and samplers (cl_sampler) ----------------===//
//
// An image is a MemObject whose storage is rows of pixels in host memory
// plus an ImageInfo: its format and extent, and the descriptor kernels see.
// Pixels are addressed as (x, y, z) with z the slice of a 3-D image or the
// layer of an array (a 1-D array's layer is z, not y), so every transfer is
// one strided copy.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_IMAGE_H
#define WEFT_LIB_CL_IMAGE_H

#include "MemObject.h"

#include <cstdint>

namespace weft {

/// What an image kernel argument points at. Must match WeftImage in
/// lib/kernel/image.cl field for field.
struct ImageDescriptor {
  void *Data = nullptr;
  int32_t Width = 1, Height = 1, Depth = 1, ArraySize = 1;
  uint64_t RowPitch = 0;   ///< bytes from one y to the next
  uint64_t SlicePitch = 0; ///< bytes from one z (slice or layer) to the next
  uint32_t Order = 0, Type = 0, ElementSize = 0, NumChannels = 0;
  uint32_t ImageType = 0, Reserved = 0;
};
static_assert(sizeof(ImageDescriptor) == 64, "layout shared with image.cl");

struct ImageInfo {
  cl_mem_object_type Type = 0;
  cl_image_format Format{};
  size_t ElementSize = 0;
  size_t Width = 1, Height = 1, Depth = 1, ArraySize = 0;
  /// The pitches clGetImageInfo reports (the application's, for host
  /// pointers).
  size_t RowPitch = 0, SlicePitch = 0;
  /// The image1d_buffer's buffer, held for the image's lifetime.
  MemObject *Buffer = nullptr;
  ImageDescriptor Kernel;

  ~ImageInfo();
};

/// Bytes per pixel of a supported format, 0 if the format is invalid.
size_t imageElementSize(const cl_image_format &Format);

class CommandQueue;

/// The checks of clEnqueueCopyImage, clEnqueueFillImage and
/// clEnqueueCopyImageToBuffer/BufferToImage (ToBuffer) before the wait
/// list's, in the specification's order; on success Cmd describes the
/// command on Queue's device. Shared with the command-buffer recording
/// commands. Null memory objects are refused as invalid.
cl_int prepareCopyImage(CommandQueue *Queue, MemObject *Src, MemObject *Dst,
                        const size_t *SrcOrigin, const size_t *DstOrigin,
                        const size_t *Region, Command &Cmd);
cl_int prepareFillImage(CommandQueue *Queue, MemObject *Image,
                        const void *FillColor, const size_t *Origin,
                        const size_t *Region, Command &Cmd);
cl_int prepareCopyImageBuffer(CommandQueue *Queue, MemObject *Image,
                              MemObject *Buffer, const size_t *Origin,
                              const size_t *Region, size_t Offset,
                              bool ToBuffer, Command &Cmd);

class Sampler : public _cl_sampler, public RefCounted<Sampler> {
public:
  Sampler(Context &Ctx, bool Normalized, cl_addressing_mode Addressing,
          cl_filter_mode Filter, std::vector<cl_sampler_properties> Props);
  ~Sampler();

  Context &context() const { return Ctx; }
  bool normalized() const { return Normalized; }
  cl_addressing_mode addressing() const { return Addressing; }
  cl_filter_mode filter() const { return Filter; }
  const std::vector<cl_sampler_properties> &properties() const {
    return Properties;
  }
  /// The CLK_* bitfield the kernel library decodes.
  uintptr_t kernelValue() const;

private:
  Context &Ctx;
  bool Normalized;
  cl_addressing_mode Addressing;
  cl_filter_mode Filter;
  std::vector<cl_sampler_properties> Properties;
};

inline Sampler *castSampler(cl_sampler S) {
  return castHandle<Sampler, ObjectKind::Sampler>(S);
}

} // namespace weft

#endif // WEFT_LIB_CL_IMAGE_H
