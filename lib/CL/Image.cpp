//===- Image.cpp - Images: creation, queries and the commands on them -----===//
//
// An image's pixels live in host memory like a buffer's (every device of a
// context shares it), row after row with the pitches of ImageInfo. Every
// transfer therefore becomes one strided copy (CommandKind::*BufferRect)
// whose three axes are the region's: axis 0 is x, axis 1 is y (or the
// layer of a 1-D array), axis 2 is z (or the layer of a 2-D array); the
// byte stride of each axis comes from axisStride(). Filling converts the
// colour to one pixel on the host and repeats it over the region.
//
//===----------------------------------------------------------------------===//

#include "Image.h"

#include "CommandQueue.h"
#include "HostMemory.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace weft {

ImageInfo::~ImageInfo() {
  if (Buffer)
    Buffer->releaseInternal();
}

namespace {

size_t channelCount(cl_channel_order Order) {
  switch (Order) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_Rx:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return 2;
  case CL_RGB:
  case CL_RGBx:
  case CL_sRGB:
  case CL_sRGBx:
    return 3;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
  case CL_sRGBA:
  case CL_sBGRA:
    return 4;
  default:
    return 0;
  }
}

size_t channelSize(cl_channel_type Type) {
  switch (Type) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}

bool isPackedType(cl_channel_type Type) {
  return Type == CL_UNORM_SHORT_565 || Type == CL_UNORM_SHORT_555 ||
         Type == CL_UNORM_INT_101010 || Type == CL_UNORM_INT_101010_2 ||
         Type == CL_UNORM_INT24;
}

/// The formats Weft implements, in the order clGetSupportedImageFormats
/// lists them. sRGB formats are listed for reading only: writing them is
/// cl_khr_srgb_image_writes, which Weft does not claim.
std::vector<cl_image_format> supportedFormats(bool ForWriting) {
  const cl_channel_type AllTypes[] = {
      CL_UNORM_INT8,     CL_UNORM_INT16,     CL_SNORM_INT8,
      CL_SNORM_INT16,    CL_SIGNED_INT8,     CL_SIGNED_INT16,
      CL_SIGNED_INT32,   CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,
      CL_UNSIGNED_INT32, CL_HALF_FLOAT,      CL_FLOAT};
  const cl_channel_type Bytes8[] = {CL_UNORM_INT8, CL_SNORM_INT8,
                                    CL_SIGNED_INT8, CL_UNSIGNED_INT8};
  const cl_channel_type NormAndFloat[] = {CL_UNORM_INT8,  CL_UNORM_INT16,
                                          CL_SNORM_INT8,  CL_SNORM_INT16,
                                          CL_HALF_FLOAT,  CL_FLOAT};
  std::vector<cl_image_format> List;
  for (cl_channel_order O : {CL_RGBA, CL_R, CL_RG, CL_A, CL_RA})
    for (cl_channel_type T : AllTypes)
      List.push_back({O, T});
  for (cl_channel_order O : {CL_BGRA, CL_ARGB, CL_ABGR})
    for (cl_channel_type T : Bytes8)
      List.push_back({O, T});
  for (cl_channel_order O : {CL_INTENSITY, CL_LUMINANCE})
    for (cl_channel_type T : NormAndFloat)
      List.push_back({O, T});
  if (!ForWriting) {
    List.push_back({CL_sRGBA, CL_UNORM_INT8});
    List.push_back({CL_sBGRA, CL_UNORM_INT8});
  }
  return List;
}

bool isSupported(const cl_image_format &F) {
  for (const cl_image_format &S : supportedFormats(false))
    if (S.image_channel_order == F.image_channel_order &&
        S.image_channel_data_type == F.image_channel_data_type)
      return true;
  return false;
}

/// A format the specification defines (supported or not).
bool isValidFormat(const cl_image_format &F) {
  cl_channel_order O = F.image_channel_order;
  cl_channel_type T = F.image_channel_data_type;
  if (!channelCount(O) || (!channelSize(T) && !isPackedType(T)))
    return false;
  switch (O) {
  case CL_RGB:
  case CL_RGBx:
    return isPackedType(T);
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return T == CL_UNORM_INT8 || T == CL_UNORM_INT16 || T == CL_SNORM_INT8 ||
           T == CL_SNORM_INT16 || T == CL_HALF_FLOAT || T == CL_FLOAT;
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
    return T == CL_UNORM_INT8 || T == CL_SNORM_INT8 ||
           T == CL_SIGNED_INT8 || T == CL_UNSIGNED_INT8;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return T == CL_UNORM_INT8;
  case CL_DEPTH:
    return T == CL_UNORM_INT16 || T == CL_FLOAT;
  default:
    return !isPackedType(T);
  }
}

bool isImageType(cl_mem_object_type T) {
  return T == CL_MEM_OBJECT_IMAGE1D || T == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
         T == CL_MEM_OBJECT_IMAGE1D_ARRAY || T == CL_MEM_OBJECT_IMAGE2D ||
         T == CL_MEM_OBJECT_IMAGE2D_ARRAY || T == CL_MEM_OBJECT_IMAGE3D;
}

bool hasMoreThanOne(cl_mem_flags Flags, cl_mem_flags Group) {
  cl_mem_flags Set = Flags & Group;
  return Set & (Set - 1);
}

cl_int validateImageFlags(cl_mem_flags Flags) {
  const cl_mem_flags Known =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS |
      CL_MEM_KERNEL_READ_AND_WRITE;
  if (Flags & ~Known)
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_mem_flags bits");
  if (hasMoreThanOne(Flags, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY |
                                CL_MEM_READ_ONLY))
    return WEFT_ERROR(CL_INVALID_VALUE, "conflicting device access flags");
  if (hasMoreThanOne(Flags, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                                CL_MEM_HOST_NO_ACCESS))
    return WEFT_ERROR(CL_INVALID_VALUE, "conflicting host access flags");
  if ((Flags & CL_MEM_USE_HOST_PTR) &&
      (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "USE_HOST_PTR with ALLOC or COPY_HOST_PTR");
  return CL_SUCCESS;
}

/// Extent of an image along a region axis (see the file comment).
size_t axisExtent(const ImageInfo &I, int Axis) {
  switch (Axis) {
  case 0:
    return I.Width;
  case 1:
    return I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? I.ArraySize : I.Height;
  default:
    return I.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? I.ArraySize : I.Depth;
  }
}

/// Bytes between consecutive positions along region axis 1 or 2.
size_t axisStride(const ImageInfo &I, int Axis) {
  if (Axis == 1 && I.Type != CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return I.Kernel.RowPitch;
  return I.Kernel.SlicePitch;
}

/// How many region axes an image type uses (the rest must be 0 / 1).
/// The rules of cl_khr_image2d_from_buffer, for every device of Ctx with
/// images: the row pitch a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT
/// pixels, the buffer's first byte of CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT.
cl_int validateBufferImage2D(Context &Ctx, const MemObject &Buffer,
                             size_t RowPitch, size_t Element) {
  for (Device *D : Ctx.devices()) {
    const DeviceDescription &DD = D->description();
    if (!DD.ImageSupport)
      continue;
    if (!DD.ImagePitchAlignment || !DD.ImageBaseAddressAlignment)
      return WEFT_ERROR(CL_INVALID_OPERATION,
                        "a device of the context makes no 2D image from a "
                        "buffer");
    if (RowPitch % (DD.ImagePitchAlignment * Element))
      return WEFT_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                        "row pitch not a multiple of "
                        "CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels");
    if (reinterpret_cast<uintptr_t>(Buffer.storage()) %
        (DD.ImageBaseAddressAlignment * Element))
      return WEFT_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                        "buffer not aligned to "
                        "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels");
  }
  return CL_SUCCESS;
}

int usedAxes(cl_mem_object_type T) {
  switch (T) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return 1;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
    return 2;
  default:
    return 3;
  }
}

/// Checks origin and region against an image, per the specification.
cl_int validateImageRegion(const ImageInfo &I, const size_t *Origin,
                           const size_t *Region) {
  if (!Origin || !Region)
    return WEFT_ERROR(CL_INVALID_VALUE, "origin or region is NULL");
  int Axes = usedAxes(I.Type);
  for (int A = 0; A < 3; ++A) {
    if (Region[A] == 0)
      return WEFT_ERROR(CL_INVALID_VALUE, "a region dimension is 0");
    if (A >= Axes) {
      if (Origin[A] != 0 || Region[A] != 1)
        return WEFT_ERROR(CL_INVALID_VALUE,
                          "origin/region beyond the image's dimensions");
      continue;
    }
    size_t Extent = axisExtent(I, A);
    if (Origin[A] > Extent || Region[A] > Extent - Origin[A])
      return WEFT_ERROR(CL_INVALID_VALUE, "region outside the image");
  }
  return CL_SUCCESS;
}

size_t imageOffset(const ImageInfo &I, const size_t *Origin) {
  return Origin[0] * I.ElementSize + Origin[1] * axisStride(I, 1) +
         Origin[2] * axisStride(I, 2);
}

void holdUntilComplete(Event *E, MemObject *Mem) {
  Mem->retainInternal();
  E->onCompletion([Mem] { Mem->releaseInternal(); });
}

/// An image command of Queue writes Mem (an image or a buffer): where Mem
/// is a buffer or an image made from one, that buffer's copies on devices
/// with memory of their own are stale afterwards (trackBufferUses; image
/// commands run only on devices that share host memory).
static void trackImageCommandWrite(CommandQueue &Queue, Command &Cmd,
                                   MemObject *Mem) {
  if (!Queue.context().hasOwnMemoryDevice())
    return;
  MemObject *Buffer = Mem->image() ? Mem->image()->Buffer : Mem;
  if (Buffer)
    trackBufferUses(Queue.context(), Queue.device(), Cmd,
                    {{Buffer, 0, Buffer->size(), true, true}});
}

MemObject *castImage(cl_mem M) {
  MemObject *Mem = castMemObject(M);
  return Mem && Mem->image() ? Mem : nullptr;
}

cl_int checkHostAccess(const MemObject &Mem, bool Reading) {
  if (Reading &&
      (Mem.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return WEFT_ERROR(CL_INVALID_OPERATION, "image is not host-readable");
  if (!Reading &&
      (Mem.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return WEFT_ERROR(CL_INVALID_OPERATION, "image is not host-writable");
  return CL_SUCCESS;
}

cl_int checkQueueImages(CommandQueue *Queue,
                        std::initializer_list<MemObject *> Images) {
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  for (MemObject *M : Images)
    if (!M)
      return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad image");
  for (MemObject *M : Images)
    if (&M->context() != &Queue->context())
      return WEFT_ERROR(CL_INVALID_CONTEXT, "image and queue contexts differ");
  if (!Queue->device().description().ImageSupport)
    return WEFT_ERROR(CL_INVALID_OPERATION, "the device has no images");
  return CL_SUCCESS;
}

cl_mem createImage(cl_context C, const cl_mem_properties *Properties,
                   cl_mem_flags Flags, const cl_image_format *Format,
                   const cl_image_desc *Desc, void *HostPtr,
                   cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_mem {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  Context *Ctx = castContext(C);
  if (!Ctx)
    return Fail(WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
  std::vector<cl_mem_properties> Props;
  if (Properties) {
    if (*Properties)
      return Fail(WEFT_ERROR(CL_INVALID_PROPERTY, "unknown image property"));
    Props.push_back(0);
  }
  if (cl_int Err = validateImageFlags(Flags))
    return Fail(Err);
  if (!Format || !isValidFormat(*Format))
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                           "NULL or invalid image format"));
  if (!Desc || !isImageType(Desc->image_type))
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                           "NULL image_desc or not an image type"));
  const cl_mem_object_type Type = Desc->image_type;
  const bool IsBufferImage = Type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  const bool IsArray = Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                       Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  const int Axes = usedAxes(Type);
  size_t Width = Desc->image_width;
  size_t Height = Type == CL_MEM_OBJECT_IMAGE2D ||
                          Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                          Type == CL_MEM_OBJECT_IMAGE3D
                      ? Desc->image_height
                      : 1;
  size_t Depth = Type == CL_MEM_OBJECT_IMAGE3D ? Desc->image_depth : 1;
  size_t ArraySize = IsArray ? Desc->image_array_size : 1;
  if (Width == 0 || Height == 0 || Depth == 0 || ArraySize == 0)
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                           "an image dimension is 0"));
  if (Desc->num_mip_levels || Desc->num_samples)
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                           "mipmaps and multisampling are not supported"));
  // An image1d_buffer, or a 2D image from a buffer
  // (cl_khr_image2d_from_buffer), keeps its pixels in the buffer's storage.
  MemObject *Buffer = nullptr;
  if (Desc->mem_object) {
    Buffer = castBuffer(Desc->mem_object);
    if (!Buffer)
      return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                             "mem_object is not a buffer (images made from "
                             "images are not supported)"));
    if (!IsBufferImage && Type != CL_MEM_OBJECT_IMAGE2D)
      return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                             "only image1d_buffer and 2D images are made "
                             "from a buffer"));
    if (&Buffer->context() != Ctx)
      return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                             "buffer of another context"));
  } else if (IsBufferImage) {
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                           "an image1d_buffer needs a buffer"));
  }
  const size_t Element = imageElementSize(*Format);
  const size_t MinRow = Width * Element;
  size_t RowPitch = Desc->image_row_pitch;
  size_t SlicePitch = Desc->image_slice_pitch;
  if (!HostPtr && (SlicePitch || (RowPitch && !Buffer)))
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                           "pitches must be 0 without a host_ptr"));
  if (RowPitch == 0)
    RowPitch = MinRow;
  else if (RowPitch < MinRow || RowPitch % Element)
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                           "row pitch too small or not a multiple of the "
                           "element size"));
  const size_t MinSlice = Type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                              ? RowPitch
                              : RowPitch * Height;
  if (Type == CL_MEM_OBJECT_IMAGE3D || IsArray) {
    if (SlicePitch == 0)
      SlicePitch = MinSlice;
    else if (SlicePitch < MinSlice || SlicePitch % RowPitch)
      return Fail(WEFT_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                             "slice pitch too small or not a multiple of the "
                             "row pitch"));
  } else {
    SlicePitch = 0;
  }

  // Only devices with images count; at least one must take the size.
  bool AnyImageDevice = false, Fits = false;
  for (Device *D : Ctx->devices()) {
    const DeviceDescription &DD = D->description();
    if (!DD.ImageSupport)
      continue;
    AnyImageDevice = true;
    bool Ok = true;
    switch (Type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      Ok = Width <= DD.Image2DMaxWidth;
      break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
      Ok = Width <= DD.ImageMaxBufferSize;
      break;
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      Ok = Width <= DD.Image2DMaxWidth && Height <= DD.Image2DMaxHeight;
      break;
    case CL_MEM_OBJECT_IMAGE3D:
      Ok = Width <= DD.Image3DMaxWidth && Height <= DD.Image3DMaxHeight &&
           Depth <= DD.Image3DMaxDepth;
      break;
    }
    if (IsArray && ArraySize > DD.ImageMaxArraySize)
      Ok = false;
    size_t Bytes = (Axes == 3 || Type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
                       ? SlicePitch * Depth * ArraySize
                       : RowPitch * Height;
    if (Bytes > DD.MaxMemAllocSize)
      Ok = false;
    Fits |= Ok;
  }
  if (!AnyImageDevice)
    return Fail(WEFT_ERROR(CL_INVALID_OPERATION,
                           "no device of the context supports images"));
  if (!Fits)
    return Fail(WEFT_ERROR(CL_INVALID_IMAGE_SIZE,
                           "image exceeds the devices' image limits"));

  if (Buffer) {
    if (HostPtr)
      return Fail(WEFT_ERROR(CL_INVALID_HOST_PTR,
                             "host_ptr with an image made from a buffer"));
    if (Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                 CL_MEM_COPY_HOST_PTR))
      return Fail(WEFT_ERROR(CL_INVALID_VALUE,
                             "host-pointer flags with an image made from a "
                             "buffer"));
    if (!IsBufferImage)
      if (cl_int Err = validateBufferImage2D(*Ctx, *Buffer, RowPitch, Element))
        return Fail(Err);
    cl_mem_flags P = Buffer->flags();
    if (((P & CL_MEM_WRITE_ONLY) &&
         (Flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((P & CL_MEM_READ_ONLY) &&
         (Flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
        ((P & CL_MEM_HOST_WRITE_ONLY) && (Flags & CL_MEM_HOST_READ_ONLY)) ||
        ((P & CL_MEM_HOST_READ_ONLY) && (Flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((P & CL_MEM_HOST_NO_ACCESS) &&
         (Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
      return Fail(WEFT_ERROR(CL_INVALID_VALUE,
                             "flags conflict with the buffer's"));
    if ((IsBufferImage ? MinRow : RowPitch * Height) > Buffer->size())
      return Fail(WEFT_ERROR(CL_INVALID_IMAGE_SIZE,
                             "image larger than its buffer"));
    const cl_mem_flags DeviceFlags =
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    const cl_mem_flags HostFlags = CL_MEM_HOST_WRITE_ONLY |
                                   CL_MEM_HOST_READ_ONLY |
                                   CL_MEM_HOST_NO_ACCESS;
    if (!(Flags & DeviceFlags))
      Flags |= P & DeviceFlags;
    if (!(Flags & HostFlags))
      Flags |= P & HostFlags;
  } else {
    bool NeedsHostPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (NeedsHostPtr != (HostPtr != nullptr))
      return Fail(WEFT_ERROR(CL_INVALID_HOST_PTR,
                             NeedsHostPtr
                                 ? "host_ptr is NULL"
                                 : "host_ptr without USE/COPY_HOST_PTR"));
  }
  if (!isSupported(*Format))
    return Fail(WEFT_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED,
                           "the image format is not supported"));
  if (!(Flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)))
    Flags |= CL_MEM_READ_WRITE;

  auto Info = std::make_unique<ImageInfo>();
  Info->Type = Type;
  Info->Format = *Format;
  Info->ElementSize = Element;
  Info->Width = Width;
  Info->Height = Height;
  Info->Depth = Depth;
  Info->ArraySize = IsArray ? ArraySize : 0;
  // Storage the runtime allocates is packed; the application's keeps the
  // application's pitches.
  size_t StoreRow = (Flags & CL_MEM_USE_HOST_PTR) || Buffer ? RowPitch : MinRow;
  size_t StoreSlice =
      (Flags & CL_MEM_USE_HOST_PTR)
          ? (SlicePitch ? SlicePitch : StoreRow * Height)
          : (Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? MinRow : MinRow * Height);
  size_t Layers = Depth * ArraySize;
  size_t Size = StoreSlice * Layers;
  Info->RowPitch = StoreRow;
  Info->SlicePitch =
      (Type == CL_MEM_OBJECT_IMAGE3D || IsArray) ? StoreSlice : 0;

  void *Storage = nullptr;
  bool Owns = false;
  if (Buffer) {
    Storage = Buffer->storage();
    Size = StoreRow * Height;
    Buffer->retainInternal();
    Info->Buffer = Buffer;
  } else if (Flags & CL_MEM_USE_HOST_PTR) {
    Storage = HostPtr;
  } else {
    Storage = allocateHostMemory(Size, BufferAlignment);
    if (!Storage)
      return Fail(WEFT_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                             "out of host memory"));
    Owns = true;
    if (Flags & CL_MEM_COPY_HOST_PTR) {
      size_t SrcSlice = Type == CL_MEM_OBJECT_IMAGE3D || IsArray
                            ? SlicePitch
                            : RowPitch * Height;
      for (size_t Z = 0; Z < Layers; ++Z)
        for (size_t Y = 0; Y < Height; ++Y)
          memcpy(static_cast<unsigned char *>(Storage) + Z * StoreSlice +
                     Y * StoreRow,
                 static_cast<const unsigned char *>(HostPtr) + Z * SrcSlice +
                     Y * RowPitch,
                 MinRow);
    }
  }
  ImageDescriptor &K = Info->Kernel;
  K.Data = Storage;
  K.Width = static_cast<int32_t>(Width);
  K.Height = static_cast<int32_t>(Height);
  K.Depth = static_cast<int32_t>(Depth);
  K.ArraySize = static_cast<int32_t>(ArraySize);
  K.RowPitch = StoreRow;
  K.SlicePitch = StoreSlice;
  K.Order = Format->image_channel_order;
  K.Type = Format->image_channel_data_type;
  K.ElementSize = static_cast<uint32_t>(Element);
  K.NumChannels = static_cast<uint32_t>(channelCount(K.Order));
  K.ImageType = Type;
  WEFT_LOG(DebugMemory, "image %zux%zux%zu[%zu] of %zu-byte pixels at %p",
           Width, Height, Depth, ArraySize, Element, Storage);
  auto *Mem = new MemObject(*Ctx, Flags, Size,
                            (Flags & CL_MEM_USE_HOST_PTR) ? HostPtr : nullptr,
                            Storage, Owns, std::move(Props));
  Mem->setImage(std::move(Info));
  setError(ErrcodeRet, CL_SUCCESS);
  return Mem;
}

//===----------------------------------------------------------------------===//
// Colour -> pixel, for clEnqueueFillImage
//===----------------------------------------------------------------------===//

uint16_t floatToHalf(float F) {
  uint32_t X;
  memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000u, Abs = X & 0x7fffffffu;
  if (Abs >= 0x7f800000u)
    return Sign | 0x7c00u | (Abs > 0x7f800000u ? 0x200u : 0u);
  if (Abs >= 0x477ff000u)
    return Sign | 0x7c00u;
  if (Abs < 0x38800000u) {
    float A;
    memcpy(&A, &Abs, 4);
    return Sign | static_cast<uint32_t>(std::nearbyint(A * 16777216.0f));
  }
  uint32_t R = Abs - 0x38000000u;
  R += 0xfffu + ((R >> 13) & 1u);
  return Sign | (R >> 13);
}

int64_t saturateRte(float F, float Lo, float Hi) {
  if (std::isnan(F))
    return 0;
  return static_cast<int64_t>(std::nearbyint(std::min(std::max(F, Lo), Hi)));
}

float linearToSrgb(float C) {
  if (!(C > 0.0f))
    return 0.0f;
  if (C >= 1.0f)
    return 1.0f;
  return C <= 0.0031308f ? C * 12.92f
                         : 1.055f * std::pow(C, 1.0f / 2.4f) - 0.055f;
}

/// One pixel of Format holding Color (float4, int4 or uint4 as the
/// channel type wants), converted as write_image{f,i,ui} would.
void encodePixel(const cl_image_format &Format, const void *Color,
                 unsigned char *Out) {
  cl_channel_order O = Format.image_channel_order;
  cl_channel_type T = Format.image_channel_data_type;
  uint32_t In[4];
  memcpy(In, Color, sizeof(In));
  if (O == CL_sRGBA || O == CL_sBGRA)
    for (int C = 0; C < 3; ++C) {
      float F;
      memcpy(&F, &In[C], 4);
      F = linearToSrgb(F);
      memcpy(&In[C], &F, 4);
    }
  // (r, g, b, a) -> storage order.
  int Map[4] = {0, 1, 2, 3};
  switch (O) {
  case CL_A:
    Map[0] = 3;
    break;
  case CL_RA:
    Map[1] = 3;
    break;
  case CL_BGRA:
  case CL_sBGRA:
    Map[0] = 2, Map[2] = 0;
    break;
  case CL_ARGB:
    Map[0] = 3, Map[1] = 0, Map[2] = 1, Map[3] = 2;
    break;
  case CL_ABGR:
    Map[0] = 3, Map[1] = 2, Map[2] = 1, Map[3] = 0;
    break;
  default:
    break;
  }
  size_t Channels = channelCount(O), Bytes = channelSize(T);
  for (size_t C = 0; C < Channels; ++C) {
    uint32_t V = In[Map[C]];
    float F;
    memcpy(&F, &V, 4);
    int32_t I = static_cast<int32_t>(V);
    uint32_t Raw = 0;
    switch (T) {
    case CL_UNORM_INT8:
      Raw = saturateRte(F * 255.0f, 0, 255);
      break;
    case CL_UNORM_INT16:
      Raw = saturateRte(F * 65535.0f, 0, 65535);
      break;
    case CL_SNORM_INT8:
      Raw = saturateRte(F * 127.0f, -128, 127);
      break;
    case CL_SNORM_INT16:
      Raw = saturateRte(F * 32767.0f, -32768, 32767);
      break;
    case CL_HALF_FLOAT:
      Raw = floatToHalf(F);
      break;
    case CL_SIGNED_INT8:
      Raw = std::clamp(I, -128, 127);
      break;
    case CL_SIGNED_INT16:
      Raw = std::clamp(I, -32768, 32767);
      break;
    case CL_UNSIGNED_INT8:
      Raw = std::min(V, 255u);
      break;
    case CL_UNSIGNED_INT16:
      Raw = std::min(V, 65535u);
      break;
    default: // 32-bit integers and floats are stored as given
      Raw = V;
      break;
    }
    if (Bytes == 1) {
      uint8_t B = static_cast<uint8_t>(Raw);
      memcpy(Out + C, &B, 1);
    } else if (Bytes == 2) {
      uint16_t H = static_cast<uint16_t>(Raw);
      memcpy(Out + 2 * C, &H, 2);
    } else {
      memcpy(Out + 4 * C, &Raw, 4);
    }
  }
}

/// The argument block of a fill, run as a host function by the device.
struct FillArgs {
  unsigned char *Dst;
  size_t Region[3];
  size_t Stride1, Stride2;
  size_t ElementSize;
  unsigned char Pixel[16];
};

void CL_CALLBACK fillPixels(void *Block) {
  FillArgs A;
  memcpy(&A, Block, sizeof(A));
  for (size_t Z = 0; Z < A.Region[2]; ++Z)
    for (size_t Y = 0; Y < A.Region[1]; ++Y) {
      unsigned char *Row = A.Dst + Z * A.Stride2 + Y * A.Stride1;
      for (size_t X = 0; X < A.Region[0]; ++X)
        memcpy(Row + X * A.ElementSize, A.Pixel, A.ElementSize);
    }
}

/// Normalizes host pitches of a read/write/map: 0 means packed.
cl_int hostPitches(const ImageInfo &I, const size_t *Region, size_t &RowPitch,
                   size_t &SlicePitch, size_t &Stride1, size_t &Stride2) {
  size_t MinRow = Region[0] * I.ElementSize;
  if (RowPitch == 0)
    RowPitch = MinRow;
  else if (RowPitch < MinRow)
    return WEFT_ERROR(CL_INVALID_VALUE, "row pitch smaller than a row");
  bool HasSlices = I.Type == CL_MEM_OBJECT_IMAGE3D ||
                   I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   I.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (!HasSlices) {
    if (SlicePitch != 0)
      return WEFT_ERROR(CL_INVALID_VALUE,
                        "slice pitch of a 1-D or 2-D image must be 0");
    Stride1 = RowPitch;
    Stride2 = RowPitch * Region[1];
    return CL_SUCCESS;
  }
  size_t MinSlice =
      I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? RowPitch : RowPitch * Region[1];
  if (SlicePitch == 0)
    SlicePitch = MinSlice;
  else if (SlicePitch < MinSlice)
    return WEFT_ERROR(CL_INVALID_VALUE, "slice pitch too small");
  Stride1 = I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? SlicePitch : RowPitch;
  Stride2 = SlicePitch;
  return CL_SUCCESS;
}

cl_int enqueueHostImage(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                        const size_t *Origin, const size_t *Region,
                        size_t RowPitch, size_t SlicePitch, const void *Ptr,
                        cl_uint NumEvents, const cl_event *WaitList,
                        cl_event *EventRet, bool IsRead) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castImage(M);
  if (cl_int Err = checkQueueImages(Queue, {Mem}))
    return Err;
  const ImageInfo &I = *Mem->image();
  if (cl_int Err = validateImageRegion(I, Origin, Region))
    return Err;
  size_t Stride1, Stride2;
  if (cl_int Err =
          hostPitches(I, Region, RowPitch, SlicePitch, Stride1, Stride2))
    return Err;
  if (!Ptr)
    return WEFT_ERROR(CL_INVALID_VALUE, "ptr is NULL");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  if (cl_int Err = checkHostAccess(*Mem, IsRead))
    return Err;
  Event *E = Queue->beginCommand(IsRead ? CL_COMMAND_READ_IMAGE
                                        : CL_COMMAND_WRITE_IMAGE,
                                 NumEvents, WaitList);
  Command &Cmd = E->command();
  char *DeviceStart = static_cast<char *>(Mem->deviceAddress(Queue->device())) +
                      imageOffset(I, Origin);
  char *HostStart = static_cast<char *>(const_cast<void *>(Ptr));
  Cmd.Kind = IsRead ? CommandKind::ReadBufferRect : CommandKind::WriteBufferRect;
  Cmd.Src = IsRead ? DeviceStart : HostStart;
  Cmd.Dst = IsRead ? HostStart : DeviceStart;
  Cmd.Rect.Region[0] = Region[0] * I.ElementSize;
  Cmd.Rect.Region[1] = Region[1];
  Cmd.Rect.Region[2] = Region[2];
  size_t ImgS1 = axisStride(I, 1), ImgS2 = axisStride(I, 2);
  Cmd.Rect.SrcRowPitch = IsRead ? ImgS1 : Stride1;
  Cmd.Rect.SrcSlicePitch = IsRead ? ImgS2 : Stride2;
  Cmd.Rect.DstRowPitch = IsRead ? Stride1 : ImgS1;
  Cmd.Rect.DstSlicePitch = IsRead ? Stride2 : ImgS2;
  if (!IsRead)
    trackImageCommandWrite(*Queue, Cmd, Mem);
  holdUntilComplete(E, Mem);
  return Queue->finishEnqueue(E, EventRet, Blocking);
}

/// Copies between an image and a packed region of a buffer.
} // namespace

cl_int prepareCopyImageBuffer(CommandQueue *Queue, MemObject *Img,
                              MemObject *Buf, const size_t *Origin,
                              const size_t *Region, size_t Offset,
                              bool ToBuffer, Command &Cmd) {
  if (cl_int Err = checkQueueImages(Queue, {Img, Buf}))
    return Err;
  const ImageInfo &I = *Img->image();
  if (cl_int Err = validateImageRegion(I, Origin, Region))
    return Err;
  size_t Bytes = Region[0] * Region[1] * Region[2] * I.ElementSize;
  if (Offset > Buf->size() || Bytes > Buf->size() - Offset)
    return WEFT_ERROR(CL_INVALID_VALUE, "region outside the buffer");
  if (I.Buffer == Buf || (Buf->parent() && I.Buffer == Buf->parent()))
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT,
                      "the buffer is the image's own buffer");
  char *ImgStart = static_cast<char *>(Img->deviceAddress(Queue->device())) +
                   imageOffset(I, Origin);
  char *BufStart =
      static_cast<char *>(Buf->deviceAddress(Queue->device())) + Offset;
  Cmd.Kind = CommandKind::CopyBufferRect;
  Cmd.Src = ToBuffer ? ImgStart : BufStart;
  Cmd.Dst = ToBuffer ? BufStart : ImgStart;
  Cmd.Rect.Region[0] = Region[0] * I.ElementSize;
  Cmd.Rect.Region[1] = Region[1];
  Cmd.Rect.Region[2] = Region[2];
  size_t BufS1 = Region[0] * I.ElementSize, BufS2 = BufS1 * Region[1];
  size_t ImgS1 = axisStride(I, 1), ImgS2 = axisStride(I, 2);
  Cmd.Rect.SrcRowPitch = ToBuffer ? ImgS1 : BufS1;
  Cmd.Rect.SrcSlicePitch = ToBuffer ? ImgS2 : BufS2;
  Cmd.Rect.DstRowPitch = ToBuffer ? BufS1 : ImgS1;
  Cmd.Rect.DstSlicePitch = ToBuffer ? BufS2 : ImgS2;
  return CL_SUCCESS;
}

namespace {

cl_int enqueueImageBuffer(cl_command_queue Q, cl_mem ImageHandle,
                          cl_mem BufferHandle, const size_t *Origin,
                          const size_t *Region, size_t Offset,
                          cl_uint NumEvents, const cl_event *WaitList,
                          cl_event *EventRet, bool ToBuffer) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Img = castImage(ImageHandle);
  MemObject *Buf = castBuffer(BufferHandle);
  Command Cmd;
  if (cl_int Err = prepareCopyImageBuffer(Queue, Img, Buf, Origin, Region,
                                          Offset, ToBuffer, Cmd))
    return Err;
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(ToBuffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER
                                          : CL_COMMAND_COPY_BUFFER_TO_IMAGE,
                                 NumEvents, WaitList);
  E->setCommand(std::move(Cmd));
  trackImageCommandWrite(*Queue, E->command(), ToBuffer ? Buf : Img);
  holdUntilComplete(E, Img);
  holdUntilComplete(E, Buf);
  return Queue->finishEnqueue(E, EventRet);
}

} // namespace

size_t imageElementSize(const cl_image_format &Format) {
  return channelCount(Format.image_channel_order) *
         channelSize(Format.image_channel_data_type);
}

//===----------------------------------------------------------------------===//
// Samplers
//===----------------------------------------------------------------------===//

Sampler::Sampler(Context &C, bool N, cl_addressing_mode A, cl_filter_mode F,
                 std::vector<cl_sampler_properties> Props)
    : _cl_sampler(ObjectKind::Sampler), Ctx(C), Normalized(N), Addressing(A),
      Filter(F), Properties(std::move(Props)) {
  Ctx.retainInternal();
}

Sampler::~Sampler() { Ctx.releaseInternal(); }

uintptr_t Sampler::kernelValue() const {
  // The CLK_* encoding of opencl-c-base.h, which image.cl decodes.
  uintptr_t Bits = Normalized ? 1 : 0;
  switch (Addressing) {
  case CL_ADDRESS_CLAMP_TO_EDGE:
    Bits |= 2;
    break;
  case CL_ADDRESS_CLAMP:
    Bits |= 4;
    break;
  case CL_ADDRESS_REPEAT:
    Bits |= 6;
    break;
  case CL_ADDRESS_MIRRORED_REPEAT:
    Bits |= 8;
    break;
  default:
    break;
  }
  Bits |= Filter == CL_FILTER_LINEAR ? 0x20 : 0x10;
  return Bits;
}

namespace {

cl_sampler createSampler(cl_context C, const cl_sampler_properties *Properties,
                         cl_bool Normalized, cl_addressing_mode Addressing,
                         cl_filter_mode Filter, bool FromProperties,
                         cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_sampler {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  Context *Ctx = castContext(C);
  if (!Ctx)
    return Fail(WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
  std::vector<cl_sampler_properties> Props;
  if (FromProperties && Properties) {
    bool Seen[3] = {false, false, false};
    for (const cl_sampler_properties *P = Properties; *P; P += 2) {
      int Slot = P[0] == CL_SAMPLER_NORMALIZED_COORDS ? 0
                 : P[0] == CL_SAMPLER_ADDRESSING_MODE ? 1
                 : P[0] == CL_SAMPLER_FILTER_MODE     ? 2
                                                      : -1;
      if (Slot < 0)
        return Fail(WEFT_ERROR(CL_INVALID_VALUE, "unknown sampler property"));
      if (Seen[Slot])
        return Fail(WEFT_ERROR(CL_INVALID_VALUE, "sampler property repeated"));
      Seen[Slot] = true;
      if (Slot == 0)
        Normalized = static_cast<cl_bool>(P[1]);
      else if (Slot == 1)
        Addressing = static_cast<cl_addressing_mode>(P[1]);
      else
        Filter = static_cast<cl_filter_mode>(P[1]);
      Props.push_back(P[0]);
      Props.push_back(P[1]);
    }
    Props.push_back(0);
  }
  if (Normalized != CL_TRUE && Normalized != CL_FALSE)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "normalized_coords not a bool"));
  if (Addressing != CL_ADDRESS_NONE && Addressing != CL_ADDRESS_CLAMP_TO_EDGE &&
      Addressing != CL_ADDRESS_CLAMP && Addressing != CL_ADDRESS_REPEAT &&
      Addressing != CL_ADDRESS_MIRRORED_REPEAT)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "bad addressing mode"));
  if (Filter != CL_FILTER_NEAREST && Filter != CL_FILTER_LINEAR)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "bad filter mode"));
  bool AnyImageDevice = false;
  for (Device *D : Ctx->devices())
    AnyImageDevice |= D->description().ImageSupport;
  if (!AnyImageDevice)
    return Fail(WEFT_ERROR(CL_INVALID_OPERATION,
                           "no device of the context supports images"));
  setError(ErrcodeRet, CL_SUCCESS);
  return new Sampler(*Ctx, Normalized == CL_TRUE, Addressing, Filter,
                     std::move(Props));
}

} // namespace

cl_int prepareCopyImage(CommandQueue *Queue, MemObject *Src, MemObject *Dst,
                        const size_t *SrcOrigin, const size_t *DstOrigin,
                        const size_t *Region, Command &Cmd) {
  if (cl_int Err = checkQueueImages(Queue, {Src, Dst}))
    return Err;
  const ImageInfo &S = *Src->image(), &D = *Dst->image();
  if (S.Format.image_channel_order != D.Format.image_channel_order ||
      S.Format.image_channel_data_type != D.Format.image_channel_data_type)
    return WEFT_ERROR(CL_IMAGE_FORMAT_MISMATCH, "image formats differ");
  if (cl_int Err = validateImageRegion(S, SrcOrigin, Region))
    return Err;
  if (cl_int Err = validateImageRegion(D, DstOrigin, Region))
    return Err;
  if (Src == Dst) {
    bool Overlap = true;
    for (int A = 0; A < 3; ++A) {
      size_t X = SrcOrigin[A], Y = DstOrigin[A];
      if ((X < Y ? Y - X : X - Y) >= Region[A])
        Overlap = false;
    }
    if (Overlap)
      return WEFT_ERROR(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  }
  Cmd.Kind = CommandKind::CopyBufferRect;
  Cmd.Src = static_cast<char *>(Src->deviceAddress(Queue->device())) +
            imageOffset(S, SrcOrigin);
  Cmd.Dst = static_cast<char *>(Dst->deviceAddress(Queue->device())) +
            imageOffset(D, DstOrigin);
  Cmd.Rect.Region[0] = Region[0] * S.ElementSize;
  Cmd.Rect.Region[1] = Region[1];
  Cmd.Rect.Region[2] = Region[2];
  Cmd.Rect.SrcRowPitch = axisStride(S, 1);
  Cmd.Rect.SrcSlicePitch = axisStride(S, 2);
  Cmd.Rect.DstRowPitch = axisStride(D, 1);
  Cmd.Rect.DstSlicePitch = axisStride(D, 2);
  return CL_SUCCESS;
}

cl_int prepareFillImage(CommandQueue *Queue, MemObject *Mem,
                        const void *FillColor, const size_t *Origin,
                        const size_t *Region, Command &Cmd) {
  if (cl_int Err = checkQueueImages(Queue, {Mem}))
    return Err;
  const ImageInfo &I = *Mem->image();
  if (!FillColor)
    return WEFT_ERROR(CL_INVALID_VALUE, "fill_color is NULL");
  if (cl_int Err = validateImageRegion(I, Origin, Region))
    return Err;
  FillArgs Args{};
  Args.Dst = static_cast<unsigned char *>(Mem->deviceAddress(Queue->device())) +
             imageOffset(I, Origin);
  std::copy(Region, Region + 3, Args.Region);
  Args.Stride1 = axisStride(I, 1);
  Args.Stride2 = axisStride(I, 2);
  Args.ElementSize = I.ElementSize;
  encodePixel(I.Format, FillColor, Args.Pixel);
  Cmd.Kind = CommandKind::NativeKernel;
  Cmd.Native.Fn = &fillPixels;
  Cmd.Native.Args.resize(sizeof(Args));
  memcpy(Cmd.Native.Args.data(), &Args, sizeof(Args));
  return CL_SUCCESS;
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context C, cl_mem_flags Flags,
                                              const cl_image_format *Format,
                                              const cl_image_desc *Desc,
                                              void *HostPtr,
                                              cl_int *ErrcodeRet) {
  return createImage(C, nullptr, Flags, Format, Desc, HostPtr, ErrcodeRet);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(
    cl_context C, const cl_mem_properties *Properties, cl_mem_flags Flags,
    const cl_image_format *Format, const cl_image_desc *Desc, void *HostPtr,
    cl_int *ErrcodeRet) {
  return createImage(C, Properties, Flags, Format, Desc, HostPtr, ErrcodeRet);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(
    cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
    size_t Width, size_t Height, size_t RowPitch, void *HostPtr,
    cl_int *ErrcodeRet) {
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = Width;
  Desc.image_height = Height;
  Desc.image_row_pitch = RowPitch;
  return createImage(C, nullptr, Flags, Format, &Desc, HostPtr, ErrcodeRet);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(
    cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
    size_t Width, size_t Height, size_t Depth, size_t RowPitch,
    size_t SlicePitch, void *HostPtr, cl_int *ErrcodeRet) {
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  Desc.image_width = Width;
  Desc.image_height = Height;
  Desc.image_depth = Depth;
  Desc.image_row_pitch = RowPitch;
  Desc.image_slice_pitch = SlicePitch;
  return createImage(C, nullptr, Flags, Format, &Desc, HostPtr, ErrcodeRet);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(
    cl_context C, cl_mem_flags Flags, cl_mem_object_type Type,
    cl_uint NumEntries, cl_image_format *Formats, cl_uint *NumFormats) {
  Context *Ctx = castContext(C);
  if (!Ctx)
    return WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
  if (cl_int Err = validateImageFlags(Flags))
    return Err;
  if (!isImageType(Type))
    return WEFT_ERROR(CL_INVALID_VALUE, "not an image type");
  if (NumEntries == 0 && Formats)
    return WEFT_ERROR(CL_INVALID_VALUE, "num_entries is 0");
  bool AnyImageDevice = false;
  for (Device *D : Ctx->devices())
    AnyImageDevice |= D->description().ImageSupport;
  std::vector<cl_image_format> List;
  if (AnyImageDevice)
    List = supportedFormats(Flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE |
                                     CL_MEM_KERNEL_READ_AND_WRITE));
  if (Formats)
    std::copy_n(List.begin(), std::min<size_t>(NumEntries, List.size()),
                Formats);
  if (NumFormats)
    *NumFormats = static_cast<cl_uint>(List.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem M, cl_image_info Param,
                                               size_t ParamValueSize,
                                               void *ParamValue,
                                               size_t *ParamValueSizeRet) {
  MemObject *Mem = castImage(M);
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "not an image");
  const ImageInfo &I = *Mem->image();
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  bool Is3D = I.Type == CL_MEM_OBJECT_IMAGE3D;
  bool Has2 = Is3D || I.Type == CL_MEM_OBJECT_IMAGE2D ||
              I.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  switch (Param) {
  case CL_IMAGE_FORMAT:
    return Ret(I.Format);
  case CL_IMAGE_ELEMENT_SIZE:
    return Ret(I.ElementSize);
  case CL_IMAGE_ROW_PITCH:
    return Ret(I.RowPitch);
  case CL_IMAGE_SLICE_PITCH:
    return Ret(I.SlicePitch);
  case CL_IMAGE_WIDTH:
    return Ret(I.Width);
  case CL_IMAGE_HEIGHT:
    return Ret(size_t(Has2 ? I.Height : 0));
  case CL_IMAGE_DEPTH:
    return Ret(size_t(Is3D ? I.Depth : 0));
  case CL_IMAGE_ARRAY_SIZE:
    return Ret(I.ArraySize);
  case CL_IMAGE_BUFFER:
    return Ret(static_cast<cl_mem>(I.Buffer));
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return Ret(cl_uint(0));
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_image_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(
    cl_command_queue Q, cl_mem Image, cl_bool Blocking, const size_t *Origin,
    const size_t *Region, size_t RowPitch, size_t SlicePitch, void *Ptr,
    cl_uint NumEvents, const cl_event *WaitList, cl_event *EventRet) {
  return enqueueHostImage(Q, Image, Blocking, Origin, Region, RowPitch,
                          SlicePitch, Ptr, NumEvents, WaitList, EventRet,
                          /*IsRead=*/true);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue Q, cl_mem Image, cl_bool Blocking, const size_t *Origin,
    const size_t *Region, size_t RowPitch, size_t SlicePitch, const void *Ptr,
    cl_uint NumEvents, const cl_event *WaitList, cl_event *EventRet) {
  return enqueueHostImage(Q, Image, Blocking, Origin, Region, RowPitch,
                          SlicePitch, Ptr, NumEvents, WaitList, EventRet,
                          /*IsRead=*/false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(
    cl_command_queue Q, cl_mem SrcImage, cl_mem DstImage,
    const size_t *SrcOrigin, const size_t *DstOrigin, const size_t *Region,
    cl_uint NumEvents, const cl_event *WaitList, cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Src = castImage(SrcImage);
  MemObject *Dst = castImage(DstImage);
  Command Cmd;
  if (cl_int Err =
          prepareCopyImage(Queue, Src, Dst, SrcOrigin, DstOrigin, Region, Cmd))
    return Err;
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_COPY_IMAGE, NumEvents, WaitList);
  E->setCommand(std::move(Cmd));
  trackImageCommandWrite(*Queue, E->command(), Dst);
  holdUntilComplete(E, Src);
  holdUntilComplete(E, Dst);
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(
    cl_command_queue Q, cl_mem Image, const void *FillColor,
    const size_t *Origin, const size_t *Region, cl_uint NumEvents,
    const cl_event *WaitList, cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castImage(Image);
  Command Cmd;
  if (cl_int Err = prepareFillImage(Queue, Mem, FillColor, Origin, Region, Cmd))
    return Err;
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_FILL_IMAGE, NumEvents, WaitList);
  E->setCommand(std::move(Cmd));
  trackImageCommandWrite(*Queue, E->command(), Mem);
  holdUntilComplete(E, Mem);
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue Q, cl_mem SrcImage, cl_mem DstBuffer,
    const size_t *SrcOrigin, const size_t *Region, size_t DstOffset,
    cl_uint NumEvents, const cl_event *WaitList, cl_event *EventRet) {
  return enqueueImageBuffer(Q, SrcImage, DstBuffer, SrcOrigin, Region,
                            DstOffset, NumEvents, WaitList, EventRet,
                            /*ToBuffer=*/true);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue Q, cl_mem SrcBuffer, cl_mem DstImage, size_t SrcOffset,
    const size_t *DstOrigin, const size_t *Region, cl_uint NumEvents,
    const cl_event *WaitList, cl_event *EventRet) {
  return enqueueImageBuffer(Q, DstImage, SrcBuffer, DstOrigin, Region,
                            SrcOffset, NumEvents, WaitList, EventRet,
                            /*ToBuffer=*/false);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(
    cl_command_queue Q, cl_mem Image, cl_bool Blocking, cl_map_flags MapFlags,
    const size_t *Origin, const size_t *Region, size_t *RowPitch,
    size_t *SlicePitch, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet, cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> void * {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castImage(Image);
  if (cl_int Err = checkQueueImages(Queue, {Mem}))
    return Fail(Err);
  const ImageInfo &I = *Mem->image();
  if (cl_int Err = validateImageRegion(I, Origin, Region))
    return Fail(Err);
  if (!RowPitch)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "image_row_pitch is NULL"));
  bool HasSlices = I.Type == CL_MEM_OBJECT_IMAGE3D ||
                   I.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                   I.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (HasSlices && !SlicePitch)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "image_slice_pitch is NULL"));
  const cl_map_flags Known =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if ((MapFlags & ~Known) || ((MapFlags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                              (MapFlags & (CL_MAP_READ | CL_MAP_WRITE))))
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "bad map flags"));
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Fail(Err);
  if ((MapFlags & CL_MAP_READ) && checkHostAccess(*Mem, true))
    return Fail(CL_INVALID_OPERATION);
  if ((MapFlags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
      checkHostAccess(*Mem, false))
    return Fail(CL_INVALID_OPERATION);
  if (!Queue->device().driver().sharesHostMemory())
    return Fail(WEFT_ERROR(CL_MAP_FAILURE, "device memory cannot be mapped"));
  // The mapping is the image's storage itself, with its own pitches.
  *RowPitch = I.Kernel.RowPitch;
  if (SlicePitch)
    *SlicePitch = HasSlices ? I.Kernel.SlicePitch : 0;
  Event *E = Queue->beginCommand(CL_COMMAND_MAP_IMAGE, NumEvents, WaitList);
  // Counted as written when mapped for writing: images are not tracked
  // from map to unmap.
  if (MapFlags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    trackImageCommandWrite(*Queue, E->command(), Mem);
  Mem->addMapping();
  holdUntilComplete(E, Mem);
  cl_int Err = Queue->finishEnqueue(E, EventRet, Blocking);
  setError(ErrcodeRet, Err);
  return Err == CL_SUCCESS ? Mem->storage() + imageOffset(I, Origin) : nullptr;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(
    cl_context C, cl_bool Normalized, cl_addressing_mode Addressing,
    cl_filter_mode Filter, cl_int *ErrcodeRet) {
  return createSampler(C, nullptr, Normalized, Addressing, Filter,
                       /*FromProperties=*/false, ErrcodeRet);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context C, const cl_sampler_properties *Properties,
    cl_int *ErrcodeRet) {
  // The defaults the specification gives for absent properties.
  return createSampler(C, Properties, CL_TRUE, CL_ADDRESS_CLAMP,
                       CL_FILTER_NEAREST, /*FromProperties=*/true, ErrcodeRet);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler S) {
  Sampler *Smp = castSampler(S);
  if (!Smp)
    return WEFT_ERROR(CL_INVALID_SAMPLER, "bad sampler");
  Smp->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler S) {
  Sampler *Smp = castSampler(S);
  if (!Smp)
    return WEFT_ERROR(CL_INVALID_SAMPLER, "bad sampler");
  Smp->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler S,
                                                 cl_sampler_info Param,
                                                 size_t ParamValueSize,
                                                 void *ParamValue,
                                                 size_t *ParamValueSizeRet) {
  Sampler *Smp = castSampler(S);
  if (!Smp)
    return WEFT_ERROR(CL_INVALID_SAMPLER, "bad sampler");
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (Param) {
  case CL_SAMPLER_REFERENCE_COUNT:
    return Ret(Smp->referenceCount());
  case CL_SAMPLER_CONTEXT:
    return Ret(static_cast<cl_context>(&Smp->context()));
  case CL_SAMPLER_NORMALIZED_COORDS:
    return Ret(cl_bool(Smp->normalized() ? CL_TRUE : CL_FALSE));
  case CL_SAMPLER_ADDRESSING_MODE:
    return Ret(Smp->addressing());
  case CL_SAMPLER_FILTER_MODE:
    return Ret(Smp->filter());
  case CL_SAMPLER_PROPERTIES:
    return returnVector(Smp->properties(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_sampler_info");
  }
}

} // extern "C"
